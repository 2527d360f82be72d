import type { Story, StoryDefault } from '@ladle/react';
import { CartContents, CartWidget, MobileCart, MobileFooter } from '../components/CartWidget';
import { ModalsHost } from '../app/ModalsHost';
import { CartExpiredModal, CartRemoveModal, ExtendTimerModal } from '../components/CartModals';
import { ExpiryTimer } from '../components/ExpiryTimer';
import { StoryApp } from './harness/StoryApp';
import { CART_ID, DEMO } from './harness/demo';
import { ok } from './harness/story-api';
// The cart's styles, as ModalsHost brings them to every screen.
import '../styles/checkout.css';

// mockDate: the instant the demo seller's answers were recorded at (harness/recorded.ts STORY_NOW).
export default { title: 'Components / Cart', meta: { mockDate: '2026-05-04T13:00:00.000Z' } } satisfies StoryDefault;

const aside = { maxWidth: 320, padding: 16 };
/** The recorded cart with a minute left of its hold: the timer's last minute and the extension offer. */
const lastMinute = {
  [`GET cart/${CART_ID}`]: ok({ ...DEMO.cart, cart: { ...DEMO.cart.cart, _data: [{ ...DEMO.cart.cart._data[0], expires_in: 60 }] } }),
};

export const WidgetEmpty: Story = () => (
  <StoryApp>
    <div style={aside}>
      <CartWidget />
    </div>
  </StoryApp>
);

export const WidgetWithTickets: Story = () => (
  <StoryApp cart>
    <div style={aside}>
      <CartWidget />
    </div>
  </StoryApp>
);

export const WidgetMember: Story = () => (
  <StoryApp cart member>
    <div style={aside}>
      <CartWidget />
    </div>
  </StoryApp>
);

export const ContentsWithoutCheckout: Story = () => (
  <StoryApp cart>
    <div style={aside}>
      <CartContents showCheckout={false} />
    </div>
  </StoryApp>
);

export const Timer: Story = () => (
  <StoryApp cart>
    <ExpiryTimer />
    <ExpiryTimer compact />
  </StoryApp>
);

export const TimerLastMinute: Story = () => (
  <StoryApp cart replies={lastMinute}>
    <ExpiryTimer />
  </StoryApp>
);

export const MobileFooterWithTickets: Story = () => (
  <StoryApp cart>
    <MobileFooter />
  </StoryApp>
);
MobileFooterWithTickets.meta = { width: 390 };

export const MobileCartOpen: Story = () => (
  <StoryApp cart setup={(store) => store.ui.openModal('mobile-cart')}>
    <ModalsHost />
  </StoryApp>
);
MobileCartOpen.meta = { width: 390 };

/** The dialog's body alone, as the mobile cart dialog holds it. */
export const MobileCartBody: Story = () => (
  <StoryApp cart>
    <MobileCart />
  </StoryApp>
);
MobileCartBody.meta = { width: 390 };

export const RemoveConfirmation: Story = () => (
  <StoryApp cart setup={(store) => store.cart.requestRemove(store.cart.items[0])}>
    <CartRemoveModal />
  </StoryApp>
);

export const ExtendOffer: Story = () => (
  <StoryApp cart replies={lastMinute}>
    <ExtendTimerModal />
  </StoryApp>
);

export const Expired: Story = () => (
  <StoryApp>
    <CartExpiredModal onClose={() => {}} />
  </StoryApp>
);
