import type { Story, StoryDefault } from '@ladle/react';
import { CheckoutStore } from '../stores/CheckoutStore';
import { rootStore } from '../stores/lifecycle';
import type { RootStore } from '../stores/RootStore';
import { Route } from './harness/Route';
import { CART_ID, DEMO, MEMBER_CART_ID, ORDER_ID } from './harness/demo';
import { ok, type Replies } from './harness/story-api';

// The purchase screens: /checkout (its sections purchaser, payment, donation, terms, submit: the layout registry's
// 'checkout'), the confirmation and the pending payment. mockDate: the recording's instant (harness/recorded.ts).
export default { title: 'Screens / Checkout', meta: { mockDate: '2026-05-04T13:00:00.000Z' } } satisfies StoryDefault;

/** A guest with two admission tickets: purchaser details, the card, the donation offer, the terms and 'Pay now'. */
export const Ready: Story = () => <Route path="/checkout" cart />;
export const ReadyMobile: Story = () => <Route path="/checkout" cart />;
ReadyMobile.meta = { width: 390 };

/** The checkout's own read of the cart has not answered yet (the app's startup read did): the title and 'Loading'. */
function cartThenPending(): Replies {
  let reads = 0;
  return { [`GET cart/${CART_ID}`]: () => (reads++ === 0 ? ok(DEMO.cart) : 'pending') };
}
export const Loading: Story = () => <Route path="/checkout" cart replies={cartThenPending()} />;

/** The demo member with their own cart: no purchaser form ('Purchasing as'), the card they kept offered first. */
export const Member: Story = () => <Route path="/checkout" cart="member" member />;
export const MemberMobile: Story = () => <Route path="/checkout" cart="member" member />;
MemberMobile.meta = { width: 390 };

/** The checkout store the screen uses (screens/checkout/checkout-store.ts makes it the same way). */
const checkoutOf = (store: RootStore) => rootStore(store, 'checkout', (root) => new CheckoutStore({ api: root.api, cart: root.cart }));
/** The card the gateway declines, as the shopper typed it (the test gateway's, server/services/payments/test.ts). */
const DECLINED_CARD = { number: '4000 0000 0000 0002', expiry: '12/30', cvc: '123' };
/** The member paid with a declined card: the API's recorded 402 refusal, said above the pay button. */
const declined: Replies = { [`POST cart/${MEMBER_CART_ID}/guest_checkout`]: { status: 402, body: DEMO.declined } };
export const PaymentError: Story = () => (
  <Route path="/checkout" cart="member" member replies={declined} setup={(store) => void checkoutOf(store).submit(null, DECLINED_CARD)} />
);
export const PaymentErrorMobile: Story = () => (
  <Route path="/checkout" cart="member" member replies={declined} setup={(store) => void checkoutOf(store).submit(null, DECLINED_CARD)} />
);
PaymentErrorMobile.meta = { width: 390 };

const completion = `/checkout/complete?orderIds=${ORDER_ID}`;
/** The guest's order confirmed: the seller's image, the order's QR code and its tickets. */
export const Completion: Story = () => <Route path={completion} />;
export const CompletionMobile: Story = () => <Route path={completion} />;
CompletionMobile.meta = { width: 390 };
export const CompletionLoading: Story = () => <Route path={completion} replies={{ [`GET ticket_order/${ORDER_ID}`]: 'pending' }} />;
/** An order this browser may not read: 'We could not find that order.' */
export const CompletionNotFound: Story = () => <Route path="/checkout/complete?orderIds=00000000-0000-4000-8000-000000000000" />;

/** The cart while its payment clears (a debit): the recorded cart in the state the API gives it then. */
const clearing = {
  [`GET cart/${CART_ID}`]: {
    status: 200,
    body: { ...DEMO.cart, cart: { ...DEMO.cart.cart, _data: [{ ...DEMO.cart.cart._data[0], state: 'checking_out' }] } },
  },
};
export const PendingPayment: Story = () => <Route path={`/checkout/pending/${CART_ID}`} replies={clearing} />;
export const PendingPaymentMobile: Story = () => <Route path={`/checkout/pending/${CART_ID}`} replies={clearing} />;
PendingPaymentMobile.meta = { width: 390 };

/** A seller's layout (README "Layout"): the donation offer first, then the purchaser, payment, terms and submit. */
export const SellerLayout: Story = () => (
  <Route path="/checkout" cart storefront={{ layout: { checkout: ['donation', 'purchaser', 'payment', 'terms', 'submit'] } }} />
);
