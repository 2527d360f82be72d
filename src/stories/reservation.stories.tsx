import { useEffect } from 'react';
import { when } from 'mobx';
import type { Story, StoryDefault } from '@ladle/react';
import { CitypassSection } from '../screens/event-detail/CitypassSection';
import { useReservationStore } from '../screens/event-detail/useReservationStore';
import type { ReservationStore } from '../stores/ReservationStore';
import { StoryApp } from './harness/StoryApp';
import { ADMISSION_ID, demoSession } from './harness/demo';
import '../styles/reserve.css';

// Sections of the event page's reservation flow (src/screens/event-detail) on the recorded admission event, whose
// 'CityPASS' group takes one code per ticket. mockDate: the recording's instant (harness/recorded.ts).
export default { title: 'Components / Reservation', meta: { mockDate: '2026-05-04T13:00:00.000Z' } } satisfies StoryDefault;

/** What the shopper did in the flow: the recorded session chosen, one ticket of each CityPASS type, `codes` typed
 *  in their fields, and with `submit` the 'Add to cart' pressed (the codes are checked before anything is sent). */
async function chooseCitypass(store: ReservationStore, codes: string[], submit: boolean) {
  await when(() => store.state === 'ready');
  await store.selectDate(demoSession.start_datetime.slice(0, 10));
  await store.selectSession(demoSession.id);
  await when(() => store.tickets.shownGroups.some(({ group }) => group.handler === 'citypass'));
  const citypass = store.tickets.shownGroups.find(({ group }) => group.handler === 'citypass')!;
  for (const type of citypass.types) store.tickets.increment(citypass.group, type.id);
  store.tickets.citypassSlots.flatMap((slot) => slot.keys).forEach((key, i) => store.tickets.setCitypass(key, codes[i] ?? ''));
  if (submit) await store.submit();
}

function Citypass({ codes = [], submit = false }: { codes?: string[]; submit?: boolean }) {
  const store = useReservationStore(ADMISSION_ID);
  useEffect(() => {
    void chooseCitypass(store, codes, submit);
    // The story's choices are fixed for its life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store]);
  return (
    <div className="container">
      <section className="reserve">
        <CitypassSection store={store} />
      </section>
    </div>
  );
}

/** An adult and a child CityPASS ticket chosen: a code field each, empty. */
export const CitypassEmpty: Story = () => (
  <StoryApp>
    <Citypass />
  </StoryApp>
);

/** Codes of the wrong form (the child's code in the adult's field, a short one) after 'Add to cart': each field says so. */
export const CitypassFormatError: Story = () => (
  <StoryApp>
    <Citypass codes={['CPC12345678', 'CPC123']} submit />
  </StoryApp>
);
export const CitypassFormatErrorMobile: Story = () => (
  <StoryApp>
    <Citypass codes={['CPC12345678', 'CPC123']} submit />
  </StoryApp>
);
CitypassFormatErrorMobile.meta = { width: 390 };
