/**
 * Issue 21: the API at the instants where calendars and clocks are awkward (tests/helpers/instants.ts). For each
 * instant a copy of the demo seller is loaded with the clock pinned there (its relative schedules start on the
 * pinned day, its venue in the instant's zone), and the app runs on a test clock that starts at the instant and
 * is moved by the test. Expectations come from Intl and calendar arithmetic in this file.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { AWKWARD_INSTANTS, dateIn, plusDays, timeIn, weekdayOf } from '../helpers/instants';
import { loadDemoAt, slugOf } from '../helpers/demo-at';

const GA_TIMES = Array.from({ length: 16 }, (_, i) => {
  const m = 9 * 60 + i * 30;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
});
const HOLD_SECONDS = 900;

/** The instant a venue date starts, found with Intl alone: the first minute whose local date is that date. */
function venueMidnight(date: string, tz: string): Date {
  let t = Date.parse(`${date}T00:00:00Z`) - 15 * 3600_000;
  while (dateIn(t, tz) < date) t += 60_000;
  return new Date(t);
}

describeEachDatabase('the API at awkward instants', (ctx) => {
  const clock = testClock();
  let app: FastifyInstance;
  beforeAll(async () => {
    for (const pinned of AWKWARD_INSTANTS) await loadDemoAt(ctx().db, pinned);
    app = await buildTestApp(testDeps(ctx(), clock.now));
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  const get = async (url: string) => {
    const res = await app.inject({ url });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  const gaOf = async (seller: string) =>
    (await get(`/api/events/available?_seller=${seller}&category=admission`)).event_template._data[0].id as string;
  const sessionsOn = async (seller: string, eventId: string, date: string) =>
    (await get(`/api/events/${eventId}/sessions?_seller=${seller}&_sort=start_datetime&start_datetime._ondate=${date}&_limit=100`))
      .event_session._data as Array<{ id: string; start_datetime: string; availableCapacity: number }>;

  for (const pinned of AWKWARD_INSTANTS) {
    const seller = slugOf(pinned);
    const tz = pinned.venueTz;
    const at = new Date(pinned.iso);
    const today = dateIn(at, tz);
    const sessionsLeftToday = timeIn(at, tz) < '16:30';

    it(`${pinned.key}: the calendar starts on the venue's today and names every day by its weekday`, async () => {
      clock.set(at);
      const ga = await gaOf(seller);
      const rows = (await get(`/api/events/${ga}/calendar?_seller=${seller}&_format=extended`)).calendar._data as Array<{
        date: string;
        status: string;
        annotations: string[];
        ariaLabel: string;
      }>;
      expect(rows.map((r) => r.date)).toEqual(Array.from({ length: 120 }, (_, i) => plusDays(today, i)));
      expect(rows[0].status).toBe(sessionsLeftToday ? 'available' : 'unavailable');
      expect(rows.slice(1).every((r) => r.status === 'available')).toBe(true);
      const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'UTC' });
      for (const r of rows) {
        expect(r.ariaLabel.startsWith(weekday.format(new Date(`${r.date}T12:00:00Z`)))).toBe(true);
        // The demo's message rule annotates Saturdays and Sundays, by the venue's calendar.
        expect(r.annotations, r.date).toEqual([0, 6].includes(weekdayOf(r.date)) ? ['Busy day'] : []);
      }
    });

    it(`${pinned.key}: each venue day has its sessions at their local times, none in the past`, async () => {
      clock.set(at);
      const ga = await gaOf(seller);
      for (const date of [today, plusDays(today, 1), plusDays(today, 2)]) {
        const starts = (await sessionsOn(seller, ga, date)).map((s) => new Date(s.start_datetime));
        const expected = GA_TIMES.filter((time) => date > today || time > timeIn(at, tz));
        expect(
          starts.map((s) => timeIn(s, tz)),
          `sessions on ${date}`,
        ).toEqual(expected);
        expect(starts.every((s) => dateIn(s, tz) === date)).toBe(true);
        expect(starts.every((s) => s.getTime() > at.getTime())).toBe(true);
      }
    });

    it(`${pinned.key}: "today" and "tomorrow" of the listing are the venue's days`, async () => {
      clock.set(at);
      const now = timeIn(at, tz);
      for (const date of [today, plusDays(today, 1)]) {
        const start = venueMidnight(date, tz);
        const end = venueMidnight(plusDays(date, 1), tz);
        expect([23, 24, 25]).toContain((end.getTime() - start.getTime()) / 3600_000);
        const listed = (
          (
            await get(
              `/api/events/available?_seller=${seller}&start_datetime._gte=${start.toISOString()}` +
                `&start_datetime._lt=${end.toISOString()}`,
            )
          ).event_template._data as Array<{ name: string }>
        ).map((e) => e.name);
        // Ocean Light runs daily, 10:00 to 16:00; the concert on Fridays and Saturdays at 19:30 (venue time).
        expect(listed.includes('Ocean Light: Creatures of the Deep'), `Ocean Light on ${date}`).toBe(date > today || now < '16:00');
        expect(listed.includes('The Science of Sound: A Live Concert'), `the concert on ${date}`).toBe(
          [5, 6].includes(weekdayOf(date)) && (date > today || now < '19:30'),
        );
      }
    });

    it(`${pinned.key}: a hold lasts exactly its ${HOLD_SECONDS} s, whatever the wall clock does meanwhile`, async () => {
      clock.set(at);
      const ga = await gaOf(seller);
      const detail = await get(`/api/events/${ga}?_seller=${seller}&_embed=ticket_group,ticket_type`);
      const adult = (detail.ticket_type._data as Array<{ id: string; name: string; ticket_group_id: string }>).find(
        (t) => t.name === 'Adult',
      )!;
      const [session] = await sessionsOn(seller, ga, plusDays(today, 1));
      const before = session.availableCapacity;

      const browser = new Browser(app);
      const reserved = await browser.post(`/api/cart/modify?_seller=${seller}`, {
        add: [{ event_session_id: session.id, ticket_type_id: adult.id }],
        additional_info: { [adult.ticket_group_id]: { zip_code: '10001' } },
      });
      expect(reserved.status, JSON.stringify(reserved.body)).toBe(200);
      const cart = (reserved.body as any).cart._data[0];
      expect(Date.parse(cart.expires_at) - at.getTime()).toBe(HOLD_SECONDS * 1000);
      expect(cart.expires_in).toBe(HOLD_SECONDS);
      const available = async () => (await sessionsOn(seller, ga, plusDays(today, 1))).find((s) => s.id === session.id)!.availableCapacity;
      expect(await available()).toBe(before - 1);

      clock.set(new Date(at.getTime() + (HOLD_SECONDS - 1) * 1000));
      expect(((await browser.get(`/api/cart/${cart.id}?_seller=${seller}`)).body as any).cart._data[0].expires_in).toBe(1);
      expect(await available()).toBe(before - 1);

      clock.set(new Date(at.getTime() + (HOLD_SECONDS + 1) * 1000));
      expect(await available()).toBe(before);
    });
  }
});
