import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { sessionLabels } from './helpers';

/** The demo's seated concert (the Starlight Theatre) and its first session, from the API. */
export interface ConcertSession {
  eventId: string;
  sessionId: string;
  startIso: string;
  /** seat_template_id by seat name ('ORCH-C5') */
  seats: Record<string, string>;
  /** ticket type id of the Orchestra's Adult */
  orchestraAdult: string;
}

export async function concertSession(request: APIRequestContext): Promise<ConcertSession> {
  const events = await (
    await request.get('/api/events/available?_seller=demo&category=performance&_embed=ticket_type,ticket_group')
  ).json();
  const event = events.event_template._data.find((e: { name: string }) => /Science of Sound/.test(e.name));
  const sessions = await (await request.get(`/api/events/${event.id}/sessions?_seller=demo&_sort=start_datetime&_limit=1`)).json();
  const session = sessions.event_session._data[0];
  const map = await (await request.get(`/api/events/${event.id}/sessions/${session.id}/seat_map?_seller=demo`)).json();
  const orchestra = events.ticket_group._data.find(
    (g: { name: string; event_template_id: string }) => g.name === 'Orchestra' && g.event_template_id === event.id,
  );
  const adult = events.ticket_type._data.find(
    (t: { name: string; ticket_group_id: string }) => t.name === 'Adult' && t.ticket_group_id === orchestra.id,
  );
  return {
    eventId: event.id,
    sessionId: session.id,
    startIso: session.start_datetime,
    seats: Object.fromEntries(map.seat._data.map((s: { name: string; seat_template_id: string }) => [s.name, s.seat_template_id])),
    orchestraAdult: adult.id,
  };
}

/** The date and time buttons of the concert's session on its event page. */
export function sessionButtons(page: Page, concert: ConcertSession) {
  const { date, time } = sessionLabels({ startIso: concert.startIso } as Parameters<typeof sessionLabels>[0]);
  return {
    date: page.getByRole('button', { name: new RegExp(`^${date}\\b`) }).first(),
    time: page.getByRole('button', { name: new RegExp(`^${time}`) }).first(),
  };
}

/** A ticket group's stepper button ('Add one Adult' of the Orchestra). */
export const stepper = (page: Page, group: string, name: string) =>
  page.getByRole('group', { name: group }).getByRole('button', { name, exact: true });

/** The seat selector: inline region on a wide screen, full-screen dialog on a phone. */
export const selector = (page: Page) =>
  page.getByRole('region', { name: 'Choose your seats' }).or(page.getByRole('dialog', { name: 'Choose your seats' }));

/** A seat of the open map by its place ('Orchestra row C seat 5'), whatever its state. */
export const seat = (page: Page, place: string) => page.getByRole('button', { name: new RegExp(`^${place},`) });

/** Presses Tab (at most `max` times) until `target` has the focus: how a keyboard user gets there. */
export async function tabTo(page: Page, target: Locator, max = 120): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

/** Reads the order mails the server kept, until one names `text`. */
export async function expectMailMentioning(request: APIRequestContext, text: string): Promise<void> {
  await expect
    .poll(async () => (await (await request.get('/_outbox')).text()).includes(text), { message: `a mail naming ${text}` })
    .toBe(true);
}
