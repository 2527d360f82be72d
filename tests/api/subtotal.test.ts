import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { AuthBrowser, DEMO_MEMBER, dropAnchorRules, loadDemo } from '../helpers/auth';
import { parseMoney } from '../../src/domain/money';
import { memberPriceOf, selectionSubtotal, unitPrice } from '../../src/domain/subtotal';
import { currentBenefits } from '../../src/domain/member-benefits';
import type { TicketGroupRow, TicketTypeRow } from '../../src/contract/catalogue';

const SELLER = '_seller=demo';
/** Groups a guest reserves with a plain add: seats, membership levels, codes and members-only types need more. */
const PLAIN = new Set(['tickets', 'passes', 'donation', 'ledger']);

/**
 * The running subtotal (issue 16) equals the cart: for every demo ticket type a guest can add, the figure the storefront
 * works out from the wire rows it shows (src/domain/subtotal.ts) is what the cart then charges, fees included.
 */
describeEachDatabase('running subtotal = cart (issue 16)', (ctx) => {
  let app: FastifyInstance;
  let sellerId: string;
  const clock = testClock(new Date('2026-05-04T12:00:00Z'));

  beforeAll(async () => {
    sellerId = await loadDemo(ctx().db, clock.now());
    // Ocean Light sells only after an admission with as many tickets (upsell.test.ts): here each type is priced alone
    await dropAnchorRules(ctx().db, sellerId);
    app = await buildTestApp(testDeps(ctx(), clock.now));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('for every demo ticket type a guest can add, two of it cost in the cart what the subtotal said', async () => {
    const b = new Browser(app);
    const events = (await b.get(`/api/events/available?${SELLER}&_limit=100`)).body.event_template._data as Array<{
      id: string;
      name: string;
    }>;
    let compared = 0;
    for (const event of events) {
      const read = (await b.get(`/api/events/${event.id}?${SELLER}&_embed=ticket_group,ticket_type`)).body;
      const groups = (read.ticket_group?._data ?? []) as TicketGroupRow[];
      const sessions = (
        await b.get(`/api/events/${event.id}/sessions?${SELLER}&_sort=start_datetime&_limit=1&start_datetime._gt=2026-05-05T00:00:00Z`)
      ).body.event_session?._data as Array<{ id: string }> | undefined;
      for (const group of groups) {
        if (!PLAIN.has(group.handler) || group.hidden_type === 'public_member_only') continue;
        const session = group.flexible ? null : sessions?.[0];
        if (!group.flexible && !session) continue;
        // the types as the storefront shows them: from the session's detail (its price increase), or the event for any-day passes
        const shown = session
          ? ((await b.get(`/api/events/${event.id}/sessions/${session.id}?${SELLER}&_embed=ticket_group,ticket_type`)).body.ticket_type
              ._data as TicketTypeRow[])
          : (read.ticket_type._data as TicketTypeRow[]);
        for (const type of shown.filter((t) => t.ticket_group_id === group.id && !t.member_only)) {
          const min = parseMoney(type.currency_amount_min);
          const flexibleAmount = min === null ? null : min + 123;
          const count = Math.max(2, group.min_tickets_per_order);
          if (group.max_tickets_per_order > 0 && count > group.max_tickets_per_order) continue;
          const expected = selectionSubtotal([{ type, count, flexibleAmount }]);
          expect(expected.lines, `${event.name} / ${type.name} priced`).toHaveLength(1);
          const add = Array.from({ length: count }, () => ({
            ticket_type_id: type.id,
            ...(session ? { event_session_id: session.id } : {}),
            ...(flexibleAmount !== null ? { face_value: (flexibleAmount / 100).toFixed(2) } : {}),
          }));
          const res = await new Browser(app).post(`/api/cart/modify?${SELLER}`, { add });
          expect(res.status, `${event.name} / ${type.name}: ${JSON.stringify(res.body?._data?.[0])}`).toBe(200);
          const totals = res.body.cart._data[0].cart_fees.grand_totals;
          const charged = parseMoney(totals.total_before_cartmod_price)!;
          const fees = parseMoney(totals.total_fee_fixed_outside)! + parseMoney(totals.total_fee_percent_outside)!;
          expect({ value: charged, fees }, `${event.name} / ${type.name}`).toEqual({ value: expected.value, fees: expected.fees });
          compared++;
        }
      }
    }
    // the demo's admission, exhibition, tours, family day, concert-free groups, donation and gift-card types
    expect(compared).toBeGreaterThanOrEqual(8);
  });

  it("a logged-in member: Member Admission at the benefit's price (0), a discounted Adult, and the subtotal is the cart's", async () => {
    const db = ctx().db;
    const typeOf = (group: string, key: string) =>
      db
        .selectFrom('ticket_type')
        .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
        .innerJoin('event_template', 'event_template.id', 'ticket_group.event_template_id')
        .select(['ticket_type.id', 'ticket_type.ticket_group_id', 'ticket_type.price', 'event_template.id as event_id'])
        .where('event_template.seller_id', '=', sellerId)
        .where('event_template.key', '=', 'general-admission')
        .where('ticket_group.key', '=', group)
        .where('ticket_type.key', '=', key)
        .executeTakeFirstOrThrow();
    const member = await typeOf('members', 'member');
    const adult = await typeOf('general', 'adult');
    // The demo lists Member Admission at 0 and discounts nothing: a list price the benefit takes off, and a discount.
    await db.updateTable('ticket_type').set({ price: 1000 }).where('id', '=', member.id).execute();
    await db.updateTable('ticket_type').set({ discounted_price: 2000 }).where('id', '=', adult.id).execute();
    try {
      const b = new AuthBrowser(app);
      expect((await b.post(`/api/login?${SELLER}`, { username: DEMO_MEMBER.email, password: DEMO_MEMBER.password })).status).toBe(200);
      // what the storefront reads: the member's memberships, and the session's groups with the members-only one
      const memberships = (await b.get(`/api/my/membership?${SELLER}&_embed=role,membership_program,role.membership_program`)).body
        .membership._data;
      const benefits = currentBenefits(memberships, clock.now(), true)?.benefits;
      expect(benefits?.find((x) => x.ticket_type_id === member.id)).toMatchObject({ price: 0 });
      const [session] = (
        await b.get(
          `/api/events/${member.event_id}/sessions?${SELLER}&_sort=start_datetime&_limit=1&start_datetime._gt=2026-05-05T00:00:00Z`,
        )
      ).body.event_session._data as Array<{ id: string }>;
      const detail = (
        await b.get(
          `/api/events/${member.event_id}/sessions/${session.id}?${SELLER}&_embed=ticket_group,ticket_type&ticket_group_id._in=${adult.ticket_group_id},${member.ticket_group_id}&hidden_type._in=public_browsable,public_member_only`,
        )
      ).body;
      const types = detail.ticket_type._data as TicketTypeRow[];
      const groups = detail.ticket_group._data as TicketGroupRow[];
      const chosen = [
        { id: member.id, count: 2 },
        { id: adult.id, count: 1 },
      ].map(({ id, count }) => {
        const type = types.find((t) => t.id === id)!;
        const group = groups.find((g) => g.id === type.ticket_group_id)!;
        return { type, count, memberPrice: memberPriceOf(type, group, benefits) };
      });
      const expected = selectionSubtotal(chosen);
      // the free Member Admission shows 0; the adult its discounted 20.00 plus its 1.50 fee; 2 x 10.00 + 4.00 saved
      expect(expected.lines.map((l) => [l.value, l.fees, l.saving])).toEqual([
        [0, 0, 2000],
        [2000, 150, 400],
      ]);
      expect(selectionSubtotal(chosen.map((c) => ({ ...c, memberPrice: null }))).total).not.toBe(expected.total);

      const add = chosen.flatMap(({ type, count }) =>
        Array.from({ length: count }, () => ({ ticket_type_id: type.id, event_session_id: session.id })),
      );
      const res = await b.post(`/api/cart/modify?${SELLER}`, { add });
      expect(res.status, JSON.stringify(res.body?._data?.[0])).toBe(200);
      const totals = res.body.cart._data[0].cart_fees.grand_totals;
      const charged = parseMoney(totals.total_before_cartmod_price)!;
      const fees = parseMoney(totals.total_fee_fixed_outside)! + parseMoney(totals.total_fee_percent_outside)!;
      expect({ value: charged, fees, outstanding: parseMoney(totals.total_outstanding) }).toEqual({
        value: expected.value,
        fees: expected.fees,
        outstanding: expected.total,
      });
    } finally {
      await db.updateTable('ticket_type').set({ price: member.price }).where('id', '=', member.id).execute();
      await db.updateTable('ticket_type').set({ discounted_price: null }).where('id', '=', adult.id).execute();
    }
  });

  it('a percent fee follows the amount the shopper picks, not the list price', () => {
    const type = {
      id: 't',
      name: 'Gift',
      currency_amount: '75.00',
      currency_amount_min: '10.00',
      currency_amount_max: '500.00',
      discounted_amount: null,
      outside_fees: [{ name: 'Booking fee', fee: '3.88', fixed: '2.00', percent: 2.5 }],
    } as unknown as TicketTypeRow;
    expect(unitPrice(type, 20000)).toEqual({ value: 20000, fees: 200 + 500, saving: 0 });
    expect(unitPrice(type, null)).toBeNull();
  });
});
