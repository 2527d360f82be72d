import type { Deps } from '../../deps';
import { cardGatewayId } from '../payments';
import type { Db } from '../../db';
import { LIVE_TICKET_STATES, type Cart, type Seller, type Ticket, type TicketOrder, type TicketType } from '../../db/types';
import { money } from '../../../src/domain/money';
import { table } from '../../../src/contract/tables';
import type {
  CartAnswer,
  CartEventTemplateRow,
  CartSessionRow,
  CartTicketGroupRow,
  CartTicketTypeRow,
  CartVenueRow,
  BlockingRuleRow,
  GiftCardPaymentRow,
  GrandTotalsRow,
  TicketOrderRow,
  TicketRow,
} from '../../../src/contract/cart';
import { expiresIn, grandTotals, type GrandTotals } from '../../../src/domain/cart-rules';
import { loadOwnedCart, type Caller } from './access';
import { expireCarts } from './expiry';
import { seatsById } from '../seats';
import { cartMods } from './promo';
import { sql } from 'kysely';
import { cartmodOf, editCreditSql, linesOf } from './totals';
import { blockingRules } from './blocking';
import { scheduleOf } from '../checkout/schedule';
import { amountDueNow, openParts, paidTowardsPlan, partStatus } from '../../../src/domain/payment-schedule';

export { cartmodOf, linesOf };
import { bySeat } from '../../../src/domain/seat-place';
import { dependencies, isAnchorEvent, upsellSettings, type CartVisit } from '../../../src/domain/upsell';
import type { TicketSeat } from '../../../src/contract/seating';

/** Shapes of the wire: money as decimal strings, times ISO 8601. */
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export function moneyTotals(t: GrandTotals): GrandTotalsRow {
  return {
    total_before_cartmod_price: money(t.total_before_cartmod_price),
    total_fee_fixed_outside: money(t.total_fee_fixed_outside),
    total_fee_percent_outside: money(t.total_fee_percent_outside),
    total_cartmod_amount: money(t.total_cartmod_amount),
    total_payments: money(t.total_payments),
    total_outstanding: money(t.total_outstanding),
  };
}

/** Catalogue rows the tickets refer to, by table. */
export async function relatedRows(
  db: Db,
  tickets: Array<{
    ticket_type_id: string;
    ticket_group_id: string;
    event_template_id: string;
    event_session_id: string | null;
    seat_id?: string | null;
  }>,
) {
  const ids = <K extends keyof (typeof tickets)[number]>(k: K) => [...new Set(tickets.map((t) => t[k]).filter(Boolean) as string[])];
  const q = async <T>(ids: string[], run: (ids: string[]) => Promise<T[]>) => (ids.length ? run(ids) : []);
  const [types, groups, templates, sessions, seats] = await Promise.all([
    q(ids('ticket_type_id'), (i) => db.selectFrom('ticket_type').selectAll().where('id', 'in', i).execute()),
    q(ids('ticket_group_id'), (i) => db.selectFrom('ticket_group').selectAll().where('id', 'in', i).execute()),
    q(ids('event_template_id'), (i) => db.selectFrom('event_template').selectAll().where('id', 'in', i).execute()),
    q(ids('event_session_id'), (i) => db.selectFrom('event_session').selectAll().where('id', 'in', i).execute()),
    seatsById(db, ids('seat_id')),
  ]);
  const venueIds = [...new Set(templates.map((t) => t.venue_id).filter((v): v is string => !!v))];
  const venues = await q(venueIds, (i) => db.selectFrom('venue').selectAll().where('id', 'in', i).execute());
  return { types, groups, templates, sessions, venues, seats };
}
export type Related = Awaited<ReturnType<typeof relatedRows>>;

export function ticketWire(t: Ticket, rel: Related): TicketRow {
  const session = rel.sessions.find((s) => s.id === t.event_session_id);
  const template = rel.templates.find((e) => e.id === t.event_template_id);
  const venue = rel.venues.find((v) => v.id === template?.venue_id);
  return {
    id: t.id,
    state: t.state,
    cart_id: t.cart_id,
    ticket_order_id: t.ticket_order_id,
    event_session_id: t.event_session_id,
    event_template_id: t.event_template_id,
    ticket_type_id: t.ticket_type_id,
    ticket_group_id: t.ticket_group_id,
    handler: t.handler,
    valid_from: iso(t.valid_from),
    valid_to: iso(t.valid_to),
    admit_name: t.admit_name,
    admit_email: t.admit_email,
    face_value: money(t.face_value),
    adjusted_value: money(t.adjusted_value),
    fees: money(t.fees),
    seat_id: t.seat_id,
    seat: (t.seat_id && rel.seats.get(t.seat_id)) || null,
    citypass_code: t.citypass_code ?? null,
    // The scan code is the ticket itself: it exists and is shown only once booked.
    scan_code: t.state === 'booked' || t.state === 'redeemed' ? t.scan_code : null,
    start_datetime: iso(session?.start_datetime ?? t.valid_from),
    timezone: venue?.timezone ?? null,
  };
}

export function ticketTypeWire(t: TicketType): CartTicketTypeRow {
  return {
    id: t.id,
    name: t.name,
    _rank: t._rank,
    summary: t.summary,
    ticket_group_id: t.ticket_group_id,
    currency_amount: money(t.price),
    currency_amount_min: money(t.price_min),
    currency_amount_max: money(t.price_max),
    discounted_amount: money(t.discounted_price),
    outside_fees: t.outside_fees,
  };
}

export function catalogueWire(rel: Related): {
  ticket_type: CartTicketTypeRow[];
  ticket_group: CartTicketGroupRow[];
  event_template: CartEventTemplateRow[];
  event_session: CartSessionRow[];
  venue: CartVenueRow[];
} {
  return {
    ticket_type: rel.types.map(ticketTypeWire),
    ticket_group: rel.groups.map((g) => ({
      id: g.id,
      name: g.name,
      handler: g.handler,
      event_template_id: g.event_template_id,
      min_tickets_per_order: g.min_tickets_per_order,
      max_tickets_per_order: g.max_tickets_per_order,
      meta: g.meta,
    })),
    event_template: rel.templates.map((e) => ({
      id: e.id,
      name: e.name,
      category: e.category,
      subtitle: e.subtitle,
      venue_id: e.venue_id,
      event_type: e.event_type,
      meta: e.meta,
    })),
    event_session: rel.sessions.map((s) => ({
      id: s.id,
      event_template_id: s.event_template_id,
      start_datetime: s.start_datetime.toISOString(),
      end_datetime: s.end_datetime.toISOString(),
    })),
    venue: rel.venues.map((v) => ({ id: v.id, name: v.name, timezone: v.timezone })),
  };
}

/** An event's own conflict pad (minutes), or null for the seller's default. */
const padMinutes = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

/** Cart items for display: tickets grouped by event and session, with per-type counts and totals. */
function items(seller: Seller, tickets: Array<Record<string, any>>, rel: Related) {
  const byItem = new Map<string, Array<Record<string, any>>>();
  for (const t of tickets) {
    const key = `${t.event_template_id}:${t.event_session_id ?? 'any'}`;
    byItem.set(key, [...(byItem.get(key) ?? []), t]);
  }
  const cfg = seller.config ?? {};
  const upsells = upsellSettings(cfg);
  const entries = [...byItem.entries()];
  // Spec section 4: an anchor an add-on in the cart follows is a dependency (removing it clears the cart).
  const visits = entries.map(([, list]): CartVisit => {
    const template = rel.templates.find((e) => e.id === list[0].event_template_id);
    const session = rel.sessions.find((s) => s.id === list[0].event_session_id);
    return {
      eventId: list[0].event_template_id,
      category: template?.category ?? '',
      config: template?.config,
      meta: template?.meta,
      sessionId: list[0].event_session_id,
      start: session?.start_datetime ?? null,
      end: session?.end_datetime ?? null,
      timezone: rel.venues.find((v) => v.id === template?.venue_id)?.timezone ?? seller.timezone,
      count: list.length,
    };
  });
  const dependencyIndexes = dependencies(visits, upsells);
  return entries.map(([id, list], index) => {
    const template = rel.templates.find((e) => e.id === list[0].event_template_id);
    const isAnchor = !!template && isAnchorEvent(template, upsells);
    const typeIds = [...new Set(list.map((t) => t.ticket_type_id))];
    const image = template?.meta?.image_profile;
    const session = rel.sessions.find((s) => s.id === list[0].event_session_id);
    return {
      id,
      name: template?.name ?? '',
      event_template_id: list[0].event_template_id,
      event_session_id: list[0].event_session_id,
      start_datetime: iso(session?.start_datetime),
      end_datetime: iso(session?.end_datetime),
      category: template?.category ?? '',
      pad_pre_start: padMinutes(template?.meta?.pad_pre_start),
      pad_post_end: padMinutes(template?.meta?.pad_post_end),
      image_url: image ? `/api/image/${image}?_seller=${seller.id}&sizex=128&sizey=102` : null,
      image_alt: template?.meta?.image_profile_alt ?? template?.name ?? '',
      types: typeIds.map((typeId) => {
        const ofType = list.filter((t) => t.ticket_type_id === typeId);
        const type = rel.types.find((x) => x.id === typeId);
        return {
          ticket_type_id: typeId,
          ticket_type_name: type?.name ?? '',
          ticket_group_id: type?.ticket_group_id,
          ticket_group_name: rel.groups.find((g) => g.id === type?.ticket_group_id)?.name ?? '',
          ticketCount: ofType.length,
          totalPrice: money(ofType.reduce((s, t) => s + t.adjusted_value, 0)),
          discount: money(ofType.reduce((s, t) => s + (t.cartmod_amount ?? 0), 0)),
          totalFaceValue: money(ofType.reduce((s, t) => s + t.face_value, 0)),
        };
      }),
      isAnchor,
      isDependency: dependencyIndexes.has(index),
      isMembershipEvent: !!template && template.id === cfg.membership_event_id,
      ticketIds: list.map((t) => t.id),
      seats: list
        .map((t) => (t.seat_id ? rel.seats.get(t.seat_id) : undefined))
        .filter((seat): seat is TicketSeat => !!seat)
        .sort(bySeat),
      ...citypassCodesOf(list),
    };
  });
}

/** The CityPASS codes an item's tickets were reserved with, sorted, when it has any: the cart names them. */
function citypassCodesOf(tickets: Array<{ citypass_code?: string | null }>): { citypassCodes?: string[] } {
  const codes = tickets.map((t) => t.citypass_code).filter((c): c is string => !!c);
  return codes.length ? { citypassCodes: codes.sort() } : {};
}

/** GET cart/{id}: the cart, its tickets and totals; a pending cart whose hold is up is released first. */
export async function cartView(
  deps: Deps,
  cartId: string,
  caller: Caller,
  opts: { embed: Set<string>; allTickets?: boolean },
): Promise<CartAnswer> {
  let cart = await loadOwnedCart(deps.db, cartId, caller);
  const now = deps.now();
  if (cart.state === 'pending' && cart.expires_at && new Date(cart.expires_at).getTime() <= now.getTime()) {
    await deps.db.transaction().execute((trx) => expireCarts(trx, now, { cartIds: [cartId] }));
    cart = await loadOwnedCart(deps.db, cartId, caller);
  }
  const seller = await deps.db.selectFrom('seller').selectAll().where('id', '=', cart.seller_id).executeTakeFirstOrThrow();
  const all = await deps.db
    .selectFrom('ticket')
    .selectAll()
    .where('cart_id', '=', cartId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1000)
    .execute();
  const shown = opts.allTickets ? all : all.filter((t) => (LIVE_TICKET_STATES as readonly string[]).includes(t.state));
  const rel = await relatedRows(deps.db, shown);
  const taken = await deps.db
    .selectFrom('payment')
    .select(['id', 'gateway_id', 'gateway_ref', 'amount', 'status', 'audit_action', 'occurred_on'])
    .where('cart_id', '=', cartId)
    .where('status', 'in', ['succeeded', 'refunded'])
    .orderBy('occurred_on')
    .orderBy('id')
    .execute();
  const payments = taken.filter((p) => p.status === 'succeeded');
  const giftCards = await giftCardPayments(deps.db, payments);
  // Only a held cart (no expiry: a payment plan holds it) has a plan to read; a cart with a hold skips the query.
  const schedule = cart.expires_at === null ? await scheduleOf(deps.db, cartId) : [];
  const blocking =
    cart.state === 'pending'
      ? await blockingRules(
          deps.db,
          cart.seller_id,
          cart.id,
          all.filter((t) => t.state === 'in_cart'),
        )
      : [];
  const mods = await cartMods(deps.db, cartId);
  // An edit cart (issue 17) books into the order it changes; what was paid for the tickets it replaces counts as paid.
  const orders = cart.edit_order_id
    ? cart.state === 'completed'
      ? await deps.db.selectFrom('ticket_order').selectAll().where('id', '=', cart.edit_order_id).execute()
      : []
    : await deps.db.selectFrom('ticket_order').selectAll().where('cart_id', '=', cartId).execute();
  const credit = cart.edit_order_id
    ? Number((await sql<{ credit: number }>`select ${editCreditSql(cartId)} as credit`.execute(deps.db)).rows[0]?.credit ?? 0)
    : 0;
  const paid = payments.reduce((s, p) => s + p.amount, 0) + credit;
  return cartAnswer(deps, { cart, seller, all, rel, paid, mods, orders, now, giftCards, blocking, schedule, taken }, opts);
}

/** The plan's open parts and what is due now (a held cart on a payment plan), and the payments taken: only when there are any. */
function paymentsWire(
  schedule: Array<{ id: string; due_on: Date; amount: number; created_at: Date }>,
  taken: Array<{ id: string; gateway_id: string; amount: number; status: string; audit_action: string; occurred_on: Date }>,
  outstanding: number,
  now: Date,
) {
  const out: Partial<CartAnswer['cart']['_data'][number]> = {};
  if (schedule.length > 0) {
    const paidTowards = paidTowardsPlan(schedule, taken);
    out.scheduled_payments = openParts(schedule, paidTowards).map((p) => ({
      id: p.id,
      due_date: new Date(p.due_on).toISOString(),
      amount: money(p.left),
      status: partStatus(p.due_on, now),
    }));
    out.amount_due_now = money(amountDueNow(schedule, paidTowards, now, outstanding));
  }
  if (taken.length > 0) {
    out.completed_payments = taken
      .filter((p) => p.status === 'succeeded')
      .map((p) => ({
        id: p.id,
        occurred_date: new Date(p.occurred_on).toISOString(),
        amount: money(p.amount),
        status: p.status,
        gateway_id: p.gateway_id,
      }));
    out.gateway_audit = taken.map((p) => ({
      id: p.id,
      occurred_on: new Date(p.occurred_on).toISOString(),
      audit_action: p.audit_action,
      amount: money(p.amount),
    }));
  }
  return out;
}

/** What each gift card paid of the cart, with what it holds now (spec section 3: cardNumber, remainingBalance, paymentAmount). */
async function giftCardPayments(
  db: Db,
  payments: Array<{ id: string; gateway_id: string; gateway_ref: string | null; amount: number }>,
): Promise<GiftCardPaymentRow[]> {
  const ledger = payments.filter((p) => p.gateway_id === 'ledger' && p.gateway_ref);
  if (ledger.length === 0) return [];
  const cards = await db
    .selectFrom('ledger')
    .select(['id', 'number', 'balance'])
    .where(
      'id',
      'in',
      ledger.map((p) => p.gateway_ref!),
    )
    .execute();
  return ledger.flatMap((p) => {
    const card = cards.find((c) => c.id === p.gateway_ref);
    return card
      ? [{ payment_id: p.id, card_number: card.number, payment_amount: money(p.amount), remaining_balance: money(card.balance) }]
      : [];
  });
}

/**
 * The cart answer from rows already read: GET cart reads them, the one-statement reserve (fast-reserve.ts) has them
 * from its own statements (a new cart: no payments, codes or orders).
 */
export function cartAnswer(
  deps: Deps,
  input: {
    cart: Cart;
    seller: Seller;
    all: Ticket[];
    rel: Related;
    paid: number;
    mods: Awaited<ReturnType<typeof cartMods>>;
    orders: TicketOrder[];
    now: Date;
    /** gift cards that paid part of the cart (none for a new cart) */
    giftCards?: GiftCardPaymentRow[];
    /** checkout rules waiting for a code (GET cart reads them; a new cart's answer leaves them to that read) */
    blocking?: BlockingRuleRow[];
    /** a held cart's payment plan, and the payments it has taken (GET cart reads them; a new cart has none) */
    schedule?: Array<{ id: string; due_on: Date; amount: number; created_at: Date }>;
    taken?: Array<{ id: string; gateway_id: string; amount: number; status: string; audit_action: string; occurred_on: Date }>;
  },
  opts: { embed: Set<string>; allTickets?: boolean },
): CartAnswer {
  const { cart, seller, all, rel, mods, orders, now } = input;
  const live = all.filter((t) => (LIVE_TICKET_STATES as readonly string[]).includes(t.state));
  const shown = opts.allTickets ? all : live;
  const totals = grandTotals(linesOf(live), input.paid, cartmodOf(live));
  const publicId = seller.public_identity_id;

  const row: CartAnswer['cart']['_data'][number] = {
    id: cart.id,
    cart_number: String(cart.cart_number),
    state: cart.state,
    seller_id: cart.seller_id,
    identity_id: cart.identity_id,
    ownedByPublicIdentity: cart.identity_id === publicId,
    channel_id: cart.channel_id,
    campaign: cart.campaign,
    expires_at: cart.state === 'pending' ? iso(cart.expires_at) : null,
    expires_in: cart.state === 'pending' ? expiresIn(cart.expires_at ? new Date(cart.expires_at) : null, now) : null,
    extended_at: iso(cart.extended_at),
    created_at: cart.created_at.toISOString(),
    additional_info: cart.additional_info,
    cart_fees: {
      gateway_id: totals.total_outstanding > 0 ? cardGatewayId(deps.config, seller.config) : 'free',
      account_id: seller.id,
      grand_totals: moneyTotals(totals),
    },
    items: items(seller, live, rel),
    cart_mods: mods.map((m) => {
      const hit = live.filter((t) => t.cart_mod_id === m.id);
      return {
        id: m.id,
        name: m.name,
        code: m.code,
        discount_type: m.discount_type,
        discount: money(hit.reduce((s, t) => s + t.cartmod_amount, 0)),
        tickets_affected: hit.length,
        blocking_checkout: m.blocking_checkout,
        resource: m.resource,
        resource_id: m.resource_id,
        activating_code_groups: m.activating_code_groups ?? [],
      };
    }),
    ticket_order_ids: orders.map((o) => o.id),
    gift_card_payments: input.giftCards ?? [],
    // Only when a rule holds the cart up: most carts never meet one, and the new cart's answer is GET cart's.
    ...(input.blocking?.length ? { blocking_rules: input.blocking } : {}),
    ...paymentsWire(input.schedule ?? [], input.taken ?? [], totals.total_outstanding, now),
    ...(cart.edit_order_id ? { edit_order_id: cart.edit_order_id } : {}),
  };
  const out: CartAnswer = { cart: table([row]), ticket: table(shown.map((t) => ticketWire(t, rel))) };
  const embed = new Set([...opts.embed].map((e) => e.split('.').pop()!));
  const cat = catalogueWire(rel);
  if (embed.has('ticket_type')) out.ticket_type = table(cat.ticket_type);
  if (embed.has('ticket_group')) out.ticket_group = table(cat.ticket_group);
  if (embed.has('event_template')) out.event_template = table(cat.event_template);
  if (embed.has('event_session')) out.event_session = table(cat.event_session);
  if (embed.has('venue')) out.venue = table(cat.venue);
  if (embed.has('ticket_order')) out.ticket_order = table(orders.map((o) => orderWire(o)));
  return out;
}

export function orderWire(o: TicketOrder): TicketOrderRow {
  return {
    id: o.id,
    order_number: String(o.order_number),
    identity_id: o.identity_id,
    cart_id: o.cart_id,
    state: o.state,
    purchased_on: o.purchased_on.toISOString(),
    total_before_fees_price: money(o.total_before_fees),
    total_fees: money(o.total_fees),
    total_discount: money(o.total_discount),
    total_after_fees_price: money(o.total_after_fees),
  };
}
