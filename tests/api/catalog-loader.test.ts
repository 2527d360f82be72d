import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { CatalogError, loadSellerFolder } from '../../server/catalog/loader';
import { sellerCounts } from '../../server/catalog/summary';
import { verifyPassword } from '../../server/services/password';
import { describeEachDatabase } from '../helpers/db';

const DEMO = path.resolve('sellers/demo');
// A Sunday, so weekday counts below are fixed; 8 March 2026 (a DST change in New York) falls in the range.
const NOW = new Date('2026-03-01T15:00:00Z');
const DAYS = 120;
const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

type Mutation = (f: { catalog: any; config: any; dir: string }) => void | Record<string, string>;

/**
 * A copy of the demo folder with its JSON mutated (slug 'broken' unless the mutation says otherwise); a mutation
 * may return raw file contents to write last (for files that must not be valid JSON).
 */
function sellerCopy(mutate: Mutation): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'seller-'));
  temps.push(dir);
  cpSync(DEMO, dir, { recursive: true });
  const catalog = JSON.parse(readFileSync(path.join(dir, 'catalog.json'), 'utf8'));
  const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
  config.slug = 'broken';
  const raw = mutate({ catalog, config, dir }) ?? {};
  writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify(catalog));
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  for (const [file, text] of Object.entries(raw)) writeFileSync(path.join(dir, file), text);
  return dir;
}

/** Independent count of days in [NOW's New York date, +DAYS) falling on given UTC weekdays (0 = Sunday). */
function daysOn(weekdays: number[], from = 0): number {
  let n = 0;
  for (let i = from; i < DAYS; i++) if (weekdays.includes(new Date(Date.UTC(2026, 2, 1 + i)).getUTCDay())) n++;
  return n;
}

async function refusal(promise: Promise<unknown>): Promise<CatalogError> {
  const err = await promise.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(CatalogError);
  return err as CatalogError;
}

describeEachDatabase('catalogue loader', (ctx) => {
  const db = () => ctx().db;
  let sellerId: string;

  it('loads the demo seller with everything the issue lists', async () => {
    const started = performance.now();
    ({ sellerId } = await loadSellerFolder(db(), DEMO, { now: NOW }));
    console.log(`demo load on ${ctx().kind}: ${Math.round(performance.now() - started)} ms`);
    const counts = await sellerCounts(db(), sellerId);
    const ga = 16 * DAYS;
    // The last DAYS: the free gallery talk, daily at 13:00 (issue 17).
    const sessions = ga + 7 * DAYS + daysOn([4]) + daysOn([0, 6]) + 2 * daysOn([2, 3, 4, 5], 1) + daysOn([5, 6]) + DAYS;
    expect(counts).toMatchObject({
      events: 10,
      ticket_groups: 15,
      ticket_types: 31,
      sessions,
      seats: 200,
      seat_maps: 1,
      images: 10,
      venues: 1,
      membership_levels: 3,
      memberships: 1,
      users: 1,
      gift_cards: 3,
      promo_codes: 4,
      cart_mods: 4,
    });
    const ev = await db()
      .selectFrom('event_template')
      .selectAll()
      .where('seller_id', '=', sellerId)
      .where('key', '=', 'general-admission')
      .executeTakeFirstOrThrow();
    const gaSessions = await db()
      .selectFrom('event_session')
      .select(['id', 'start_datetime', 'capacity'])
      .where('event_template_id', '=', ev.id)
      .orderBy('start_datetime')
      .execute();
    expect(gaSessions).toHaveLength(ga);
    expect(gaSessions[0].capacity).toBe(80);
    // 09:00 New York on both sides of the 8 March change.
    const starts = gaSessions.map((s) => new Date(s.start_datetime).toISOString());
    expect(starts).toContain('2026-03-07T14:00:00.000Z');
    expect(starts).toContain('2026-03-08T13:00:00.000Z');
    // Every GA session has rows for its two per-session groups (not the flexible any-day group).
    const stg = await db()
      .selectFrom('session_ticket_group')
      .innerJoin('ticket_group', 'ticket_group.id', 'session_ticket_group.ticket_group_id')
      .select(['ticket_group.key', 'session_ticket_group.capacity'])
      .where('ticket_group.event_template_id', '=', ev.id)
      .execute();
    expect(stg.filter((r) => r.key === 'general')).toHaveLength(ga);
    expect(stg.filter((r) => r.key === 'members')).toHaveLength(ga);
    expect(stg.find((r) => r.key === 'general')!.capacity).toBe(60);
    expect(stg.some((r) => r.key === 'anyday')).toBe(false);

    const adult = await db()
      .selectFrom('ticket_type')
      .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
      .select(['ticket_type.price', 'ticket_type.outside_fees'])
      .where('ticket_group.event_template_id', '=', ev.id)
      .where('ticket_group.key', '=', 'general')
      .where('ticket_type.key', '=', 'adult')
      .executeTakeFirstOrThrow();
    expect(adult).toEqual({ price: 2400, outside_fees: [{ name: 'Facility fee', fixed: 150 }] });
    const donation = await db()
      .selectFrom('ticket_type')
      .select(['price', 'price_min', 'price_max'])
      .where('seller_id', '=', sellerId)
      .where('key', '=', 'gift')
      .executeTakeFirstOrThrow();
    expect(donation).toEqual({ price: 2500, price_min: 500, price_max: 500000 });

    const seller = await db().selectFrom('seller').selectAll().where('id', '=', sellerId).executeTakeFirstOrThrow();
    expect(seller).toMatchObject({ slug: 'demo', currency: 'USD', timezone: 'America/New_York' });
    expect(seller.config.admission_event_id).toBe(ev.id);
    expect(seller.config.web.logo).toMatch(/^[0-9a-f-]{36}$/);
    expect(seller.strings['home.browseEvents']).toBe('Plan your visit');
    expect(seller.public_identity_id).toBeTruthy();
    const footer = seller.content_blocks.find((b) => b.name === 'footer-note')!;
    expect(footer.html).toContain('(212) 555-0100'); // the seller's block wins over the repo default of that name
    expect(seller.content_blocks.find((b) => b.name === 'events-welcome')).toMatchObject({
      slot: 'top',
      routes: ['events', 'event-detail'],
      roles: ['anonymous'],
    });
    const image = await db()
      .selectFrom('image')
      .select(['content_type', 'sha256'])
      .where('id', '=', ev.meta.image_profile)
      .executeTakeFirstOrThrow();
    expect(image.content_type).toBe('image/svg+xml');
    expect(ev.meta.image_profile_alt).toMatch(/atrium/);
    expect(ev.config.web.session_picker_tabs).toMatchObject({ first_tab_threshold: '1200', labels: ['Morning', 'Afternoon'] });

    const a1 = await db().selectFrom('seat').selectAll().where('name', '=', 'ORCH-A1').executeTakeFirstOrThrow();
    expect(a1).toMatchObject({
      previous_seat: null,
      next_seat: 'ORCH-A2',
      row_label: 'A',
      section: 'Orchestra',
      ticket_group_keys: ['orchestra'],
    });

    const user = await db().selectFrom('app_user').selectAll().where('seller_id', '=', sellerId).executeTakeFirstOrThrow();
    expect(user.email).toBe('member@example.com');
    expect(user.password_hash).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(await verifyPassword('MuseumDemo2026!', user.password_hash!)).toBe(true);
    expect(await verifyPassword('MuseumDemo2026?', user.password_hash!)).toBe(false);
    const membership = await db().selectFrom('membership').selectAll().where('seller_id', '=', sellerId).executeTakeFirstOrThrow();
    expect(membership).toMatchObject({ scan_code: 'M20260001', zip_code: '10024', auto_renew_state: 'scheduled', state: 'active' });
    expect(new Date(membership.valid_to).getTime()).toBeGreaterThan(NOW.getTime());
    const ledgers = await db()
      .selectFrom('ledger')
      .select(['number', 'balance'])
      .where('seller_id', '=', sellerId)
      .orderBy('number')
      .execute();
    expect(ledgers.map((l) => l.balance)).toEqual([0, 2500, 5000]);
    const expired = await db().selectFrom('promo_code').selectAll().where('code', '=', 'WINTER10').executeTakeFirstOrThrow();
    expect(new Date(expired.valid_to!).getTime()).toBeLessThan(NOW.getTime());
    const rules = await db()
      .selectFrom('message_rule')
      .select(['triggers', 'actions'])
      .where('event_template_id', '=', ev.id)
      .orderBy('_rank')
      .execute();
    expect(rules[1].triggers.quantity.ticket_group_ids[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leaves planner statistics for the tables it fills (the sessions as they are, not none)', async () => {
    // ANALYZE sets reltuples from the rows it reads (all of them, for tables this small); a table never analyzed nor
    // vacuumed has -1, and PGlite never runs autovacuum.
    const { rows } = await sql<{ relname: string; reltuples: number }>`
      select relname, reltuples from pg_class
      where relnamespace = current_schema()::regnamespace and relname in ('event_session', 'session_ticket_group')`.execute(db());
    const stats = Object.fromEntries(rows.map((r) => [r.relname, Number(r.reltuples)]));
    const counts = await sellerCounts(db(), sellerId);
    const total = await sql<{ n: number }>`select count(*)::int as n from event_session`.execute(db());
    expect(counts.sessions).toBeGreaterThan(1000);
    expect(stats.event_session).toBe(total.rows[0].n);
    expect(stats.session_ticket_group).toBeGreaterThan(0);
  });

  it('loads again idempotently: same rows, same ids, usage and balances kept, only new days added', async () => {
    const snapshot = async () => ({
      counts: await sellerCounts(db(), sellerId),
      events: await db().selectFrom('event_template').select(['id', 'key']).where('seller_id', '=', sellerId).orderBy('key').execute(),
      types: await db().selectFrom('ticket_type').select('id').where('seller_id', '=', sellerId).orderBy('id').execute(),
      sessions: await db().selectFrom('event_session').select('id').where('seller_id', '=', sellerId).orderBy('id').execute(),
    });
    const before = await snapshot();
    const session = before.sessions[0].id;
    await db().updateTable('session_ticket_group').set({ used_capacity: 3 }).where('event_session_id', '=', session).execute();
    await db().updateTable('ledger').set({ balance: 1000 }).where('number', '=', 'GC-2026-0050').execute();

    expect((await loadSellerFolder(db(), DEMO, { now: NOW })).sellerId).toBe(sellerId);
    expect(await snapshot()).toEqual(before);
    const used = await db().selectFrom('session_ticket_group').select('used_capacity').where('event_session_id', '=', session).execute();
    expect(used.every((u) => u.used_capacity === 3)).toBe(true);
    expect((await db().selectFrom('ledger').select('balance').where('number', '=', 'GC-2026-0050').executeTakeFirstOrThrow()).balance).toBe(
      1000,
    );

    // A day later the relative range moves on: one more day of sessions, none removed.
    await loadSellerFolder(db(), DEMO, { now: new Date(NOW.getTime() + 86_400_000) });
    const after = await snapshot();
    const newDay = new Date(Date.UTC(2026, 2, 1 + DAYS)).getUTCDay(); // 29 June 2026
    const added =
      16 +
      7 +
      (newDay === 4 ? 1 : 0) +
      ([0, 6].includes(newDay) ? 1 : 0) +
      ([2, 3, 4, 5].includes(newDay) ? 2 : 0) +
      ([5, 6].includes(newDay) ? 1 : 0) +
      1; // the daily free gallery talk
    expect(after.counts.sessions).toBe(before.counts.sessions + added);
    const ids = new Set(after.sessions.map((s) => s.id));
    expect(before.sessions.every((s) => ids.has(s.id))).toBe(true);
    expect(after.events).toEqual(before.events);
  });

  it('refuses a catalogue that breaks the schema, naming file and JSON path, and writes nothing', async () => {
    const sellersBefore = await db().selectFrom('seller').select('id').execute();
    const dir = sellerCopy(({ catalog }) => {
      catalog.events[0].ticket_groups[0].types[1].price = '12.5';
    });
    const err = await refusal(loadSellerFolder(db(), dir, { now: NOW }));
    expect(err.file).toBe('catalog.json');
    expect(err.path).toBe('/events/0/ticket_groups/0/types/1/price');
    expect(err.message).toBe('catalog.json: /events/0/ticket_groups/0/types/1/price: must be a decimal amount like "24.00"');
    expect(await db().selectFrom('seller').select('id').execute()).toEqual(sellersBefore);
    expect(await db().selectFrom('seller').select('id').where('slug', '=', 'broken').execute()).toEqual([]);

    const unknownProperty = sellerCopy(({ catalog }) => {
      catalog.events[2].ticket_groups[0].colour = '#fff';
    });
    expect((await refusal(loadSellerFolder(db(), unknownProperty))).path).toBe('/events/2/ticket_groups/0/colour');
  });

  it('rolls back everything when a write fails half way', async () => {
    // Lowering the flexible any-day group below what it has sold violates a check constraint mid-transaction.
    await db().updateTable('ticket_group').set({ used_capacity: 10 }).where('key', '=', 'anyday').execute();
    const dir = sellerCopy(({ catalog, config }) => {
      config.slug = 'demo';
      catalog.events[0].name = 'Renamed Admission';
      catalog.events[0].ticket_groups.find((g: { key: string }) => g.key === 'anyday')!.capacity = 5;
    });
    await expect(loadSellerFolder(db(), dir, { now: NOW })).rejects.toThrow();
    const ev = await db()
      .selectFrom('event_template')
      .select('name')
      .where('seller_id', '=', sellerId)
      .where('key', '=', 'general-admission')
      .executeTakeFirstOrThrow();
    expect(ev.name).toBe('General Admission');
    await db().updateTable('ticket_group').set({ used_capacity: 0 }).where('key', '=', 'anyday').execute();
  });

  const semantic: Array<[string, Mutation, string, string, RegExp]> = [
    [
      'an unknown venue key',
      ({ catalog }) => {
        catalog.events[3].venue = 'annex';
      },
      'catalog.json',
      '/events/3/venue',
      /unknown venue 'annex'/,
    ],
    [
      'a duplicate event key',
      ({ catalog }) => {
        catalog.events[4].key = 'ocean-light';
      },
      'catalog.json',
      '/events/4/key',
      /duplicate key 'ocean-light'/,
    ],
    [
      'an upsell requiring an unknown anchor',
      ({ catalog }) => {
        catalog.events[1].upsell.anchor_events = ['day-pass'];
      },
      'catalog.json',
      '/events/1/upsell/anchor_events/0',
      /unknown anchor event 'day-pass'/,
    ],
    [
      'a role pointing at an unknown ticket type',
      ({ catalog }) => {
        catalog.membership.roles[1].ticket_type = 'membership/levels/couple';
      },
      'catalog.json',
      '/membership/roles/1/ticket_type',
      /unknown ticket type/,
    ],
    [
      'admission_event_id naming a missing event',
      ({ config }) => {
        config.admission_event_id = 'admission';
      },
      'config.json',
      '/admission_event_id',
      /names no event/,
    ],
    [
      'min above max per order',
      ({ catalog }) => {
        catalog.events[4].ticket_groups[0].min_tickets_per_order = 8;
      },
      'catalog.json',
      '/events/4/ticket_groups/0/min_tickets_per_order',
      /must not exceed max_tickets_per_order/,
    ],
    [
      'price_min above price_max',
      ({ catalog }) => {
        catalog.events[7].ticket_groups[0].types[0].price_min = '6000.00';
      },
      'catalog.json',
      '/events/7/ticket_groups/0/types/0/price_min',
      /must not exceed price_max/,
    ],
    [
      'a rule naming an unknown type',
      ({ catalog }) => {
        catalog.events[0].ticket_groups[0].rules[0].ticket_type = 'student';
      },
      'catalog.json',
      '/events/0/ticket_groups/0/rules/0/ticket_type',
      /unknown ticket type 'student'/,
    ],
    [
      'an unknown image key',
      ({ catalog }) => {
        catalog.events[5].meta.image_cover = 'opera';
      },
      'catalog.json',
      '/events/5/meta/image_cover',
      /unknown image 'opera'/,
    ],
    [
      'a donation group that is not a donation',
      ({ config }) => {
        config.checkout_donation_tg_id = 'gift-card/giftcard';
      },
      'config.json',
      '/checkout_donation_tg_id',
      /not 'donation'/,
    ],
    [
      'a content block with a bad slot',
      ({ dir }) => {
        const file = path.join(dir, 'content-blocks/events-welcome.html');
        writeFileSync(file, readFileSync(file, 'utf8').replace('slot: top', 'slot: sidebar'));
      },
      'content-blocks/events-welcome.html',
      '/front-matter/slot',
      /must be one of top, bottom/,
    ],
    [
      'an SVG with script',
      ({ dir }) => {
        writeFileSync(path.join(dir, 'images/evil.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      },
      'images/evil.svg',
      '',
      /must not contain scripts/,
    ],
    [
      'a string override that is not text',
      ({ dir }) => {
        writeFileSync(path.join(dir, 'strings.json'), '{"events.title": 3}');
      },
      'strings.json',
      '/events.title',
      /must be string/,
    ],
    ['a catalogue that is not JSON', () => ({ 'catalog.json': '{"venues": [' }), 'catalog.json', '', /not valid JSON/],
    [
      'a schedule on a date not on the calendar',
      ({ catalog }) => {
        catalog.events[3].schedules[0].dates.to = '2026-02-30';
      },
      'catalog.json',
      '/events/3/schedules/0',
      /not a calendar date/,
    ],
    [
      'a seat section selling an unknown group',
      ({ catalog }) => {
        catalog.seat_maps[0].sections[2].ticket_groups = ['gallery'];
      },
      'catalog.json',
      '/seat_maps/0/sections/2/ticket_groups/0',
      /no event using seat map/,
    ],
    [
      'a CityPASS group whose event gives no code patterns',
      ({ catalog }) => {
        delete catalog.events[0].config.web.citypass;
      },
      'catalog.json',
      '/events/0/ticket_groups/2/handler',
      /needs config\.web\.citypass\.adult_pattern/,
    ],
    [
      'a CityPASS pattern that is not a regular expression',
      ({ catalog }) => {
        catalog.events[0].config.web.citypass.child_pattern = 'CPC[0-9';
      },
      'catalog.json',
      '/events/0/ticket_groups/2/handler',
      /'CPC\[0-9' is not a valid regular expression \(config\/web\/citypass\/child_pattern\)/,
    ],
  ];
  for (const [what, mutate, file, pathInFile, message] of semantic) {
    it(`refuses ${what}`, async () => {
      const count = (await db().selectFrom('seller').select('id').execute()).length;
      const dir = sellerCopy(mutate);
      const err = await refusal(loadSellerFolder(db(), dir, { now: NOW }));
      const issue = err.issues.find((i) => i.file === file && i.path === pathInFile);
      expect(issue, `${err.issues.map((i) => `${i.file}: ${i.path}: ${i.message}`).join('\n')}`).toBeDefined();
      expect(issue!.message).toMatch(message);
      expect((await db().selectFrom('seller').select('id').execute()).length).toBe(count);
    });
  }
});
