import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { Deps } from '../../deps';
import type { Cart, EventSession, EventTemplate, Seller, Ticket, TicketGroup, TicketTable, TicketType } from '../../db/types';
import type { CartAnswer } from '../../../src/contract/cart';
import { parseMoney } from '../../../src/domain/money';
import {
  PER_TYPE_CAP,
  groupQuantityError,
  isFlexiblePrice,
  outsideFees,
  ticketPrice,
  withinFlexibleBounds,
} from '../../../src/domain/cart-rules';
import { LIMITS } from '../auth/rate-limit';
import { DomainError } from '../errors';
import { assertSellable, capacityGuarded, remaining, soldOut, wouldOverfill } from '../inventory';
import type { Caller } from './access';
import { addressLockKey, holdLimits, holdLocksOn } from './holds';
import { holdSeconds, type ModifyBody } from './modify';
import { admitDetails, assertNamedRules, type AddLine } from './reserve';
import { requiresAnchor } from '../../../src/domain/upsell';
import { cartAnswer } from './view';
import { cachedRead, hotCaches } from '../hot-cache';
import { PREPARED } from '../../db/prepared';
import { reviveRows } from '../../db/json-rows';

/**
 * The on-sale path (issue 19): a new guest cart with tickets of one session, in three statements at most and without
 * a row lock held across a round trip. The seller is read by the route (1); one read brings the session, types, groups,
 * event, venue and named-ticket rules (2); both are kept READ_CACHE_MS (hot-cache.ts), so in an on-sale crowd a
 * reservation is statement 3 alone; the rules are checked here as prepareAdds checks them; one data-modifying
 * statement (3) counts the new cart against the address's allowance, raises the address's hold tally, takes the
 * session's and each group's capacity under the same guarded conditions as takeCapacity, creates the cart and
 * inserts the tickets, or changes nothing at all; the answer is built from what those statements returned.
 *
 * Anything else (a visitor's existing cart, removals, codes, answers, memberships, seats, several sessions, a refusal
 * of any kind) returns null and the caller takes the locked path (modifyCart), which words every refusal.
 */
/** Lines the one-statement path can take: every other body goes the locked way. */
function fastLines(body: ModifyBody): AddLine[] | null {
  const keys = Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined);
  let lines: AddLine[] | undefined;
  if (keys.length === 1 && keys[0] === 'add') lines = body.add;
  else if (keys.length === 1 && keys[0] === 'reserve' && Object.keys(body.reserve ?? {}).join() === 'tickets')
    lines = body.reserve!.tickets;
  if (!lines || lines.length === 0) return null;
  const session = lines[0].event_session_id;
  if (!session || lines.some((l) => l.event_session_id !== session || l.seat_id || l.party_role !== undefined)) return null;
  return lines;
}

interface Catalogue {
  session: EventSession | null;
  types: TicketType[];
  groups: TicketGroup[];
  event: EventTemplate | null;
  venue: { id: string; seller_id: string; key: string; name: string; timezone: string; address: unknown } | null;
  rules: Array<{ ticket_group_id: string; ticket_type_id: string | null; min: number }>;
}

/** Statement 2: everything the checks and the answer need, as one row of JSON. */
async function readCatalogue(deps: Deps, sellerId: string, sessionId: string, typeIds: string[]): Promise<Catalogue> {
  const types = sql.join(typeIds);
  const { rows } = await sql<Record<keyof Catalogue, unknown>>`
    with s as (select * from event_session where id = ${sessionId} and seller_id = ${sellerId}),
      tt as (select * from ticket_type where id in (${types}) and seller_id = ${sellerId}),
      e as (select * from event_template where id = (select event_template_id from s))
    select (select to_jsonb(s) from s) as session,
      (select coalesce(jsonb_agg(tt), '[]') from tt) as types,
      (select coalesce(jsonb_agg(g), '[]') from ticket_group g where g.id in (select ticket_group_id from tt)) as groups,
      (select to_jsonb(e) from e) as event,
      (select to_jsonb(v) from venue v where v.id = (select venue_id from e)) as venue,
      (select coalesce(jsonb_agg(r), '[]') from ticket_rule r
        where r.ticket_group_id in (select ticket_group_id from tt) and r.named = 'yes' and r.min > 0) as rules`.execute(deps.db);
  return reviveRows<Catalogue>(rows[0]);
}

/** prepareAdds' rows and checks over the read catalogue; null when a line needs the locked path or is refused. */
function prepareRows(now: Date, seller: Seller, cartId: string, lines: AddLine[], cat: Catalogue) {
  const { session } = cat;
  // A new cart holds no anchor: an add-on sold only after one is refused by the locked path, which words it.
  if (!session || !cat.event || requiresAnchor(cat.event)) return null;
  const rows: Insertable<TicketTable>[] = [];
  const perType = new Map<string, number>();
  const perGroup = new Map<string, number>();
  for (const [index, line] of lines.entries()) {
    const type = cat.types.find((t) => t.id === line.ticket_type_id);
    const group = type && cat.groups.find((g) => g.id === type.ticket_group_id);
    // Members, memberships, seats and any-date groups have rules of their own: the locked path applies them.
    if (!type || !group || group.handler !== 'tickets' || group.flexible || type.member_only || group.hidden_type === 'public_member_only')
      return null;
    assertSellable({ now, group, type, session, isMember: false });
    let flexibleAmount: number | undefined;
    if (isFlexiblePrice(type)) {
      const amount = line.face_value === null || line.face_value === undefined ? null : parseMoney(line.face_value);
      if (amount === null || !withinFlexibleBounds(type, amount)) return null;
      flexibleAmount = amount;
    }
    const price = ticketPrice(type, session.price_increase ?? 0, flexibleAmount);
    const fees = outsideFees(price.adjusted_value, type.outside_fees);
    rows.push({
      seller_id: seller.id,
      cart_id: cartId,
      event_template_id: group.event_template_id,
      event_session_id: session.id,
      ticket_group_id: group.id,
      ticket_type_id: type.id,
      state: 'in_cart',
      handler: group.handler,
      valid_from: session.start_datetime,
      valid_to: session.end_datetime,
      ...admitDetails(line, group, index),
      face_value: price.face_value,
      adjusted_value: price.adjusted_value,
      fees: fees.fixed + fees.percent,
      seat_id: null,
      additional_info: '{}',
      handler_data: JSON.stringify({ fee_fixed: fees.fixed, fee_percent: fees.percent }),
    });
    perType.set(type.id, (perType.get(type.id) ?? 0) + 1);
    perGroup.set(group.id, (perGroup.get(group.id) ?? 0) + 1);
  }
  assertNamedRules(cat.rules, rows);
  // checkQuantities over a new cart: what it holds is what this request adds.
  if ([...perType.values()].some((n) => n > PER_TYPE_CAP)) return null;
  for (const [groupId, n] of perGroup) {
    const g = cat.groups.find((x) => x.id === groupId)!;
    if (groupQuantityError(n, g.min_tickets_per_order, g.max_tickets_per_order)) return null;
  }
  return { rows, perGroup };
}

/** Statement 3 refuses by dividing by zero, so that a partial take (session taken, group full) leaves nothing behind. */
const ABORTED = new Set(['22012', '23514']);

/**
 * A refused take whose session is full: the refusal the locked path would give (takeCapacity's `soldOut.session`,
 * which it reaches after some 40 statements), in one read, when nothing the locked path does first could make room:
 * the session is still full and no expired cart holds tickets in it (expireCarts would free those). Otherwise null,
 * and the locked path decides. At the end of a sell-out every remaining buyer is told this way.
 */
async function refuseFullSession(deps: Deps, sessionId: string, take: number, now: Date): Promise<null> {
  const { rows } = await sql<{ capacity: number; oversell_capacity: number; used_capacity: number; expired: boolean }>`
    select s.capacity, s.oversell_capacity, s.used_capacity, exists (
        select 1 from cart c where c.state = 'pending' and c.expires_at <= ${now} and exists (
          select 1 from ticket t where t.cart_id = c.id and t.state = 'in_cart' and t.event_session_id = s.id)) as expired
    from event_session s where s.id = ${sessionId}`.execute(deps.db);
  const s = rows[0];
  if (!s || s.expired || !wouldOverfill(s, take)) return null;
  throw soldOut.session(sessionId, remaining(s), take);
}

/** Reserves in three statements, or returns null for the locked path (nothing was written then). */
export async function reserveInOneStatement(
  deps: Deps,
  args: { seller: Seller; caller: Caller; body: ModifyBody; embed: Set<string> },
): Promise<CartAnswer | null> {
  const { seller, caller } = args;
  const lines = fastLines(args.body);
  const identityId = seller.public_identity_id;
  if (!lines || !caller.freshToken || caller.identityId || !caller.tokenHash || !identityId) return null;
  const now = deps.now();
  const limits = holdLimits(seller);
  if (limits.heldPerVisitor > 0 && lines.length > limits.heldPerVisitor) return null;
  const sessionId = lines[0].event_session_id!;
  const cartId = randomUUID();
  const typeIds = [...new Set(lines.map((l) => l.ticket_type_id))].sort();
  // Kept READ_CACHE_MS (hot-cache.ts): nothing read here decides capacity; statement 3 takes it on the rows as they are.
  const cat = (await cachedRead(hotCaches(deps)?.catalogues, `${seller.id}|${sessionId}|${typeIds.join()}`, () =>
    readCatalogue(deps, seller.id, sessionId, typeIds),
  ))!;
  let prepared: ReturnType<typeof prepareRows>;
  try {
    prepared = prepareRows(now, seller, cartId, lines, cat);
  } catch (err) {
    if (err instanceof DomainError) return null;
    throw err;
  }
  if (!prepared) return null;
  const session = cat.session!;
  const guard = capacityGuarded();
  const groups = [...prepared.perGroup.entries()].map(([id, n]) => ({ g: cat.groups.find((x) => x.id === id)!, n }));
  const sessionTake = groups.filter(({ g }) => !g.exclude_from_event_capacity).reduce((s, { n }) => s + n, 0);
  // What the read saw already full is refused at once when it still is (or goes the locked way, which frees holds).
  if (guard && wouldOverfill(session, sessionTake)) return refuseFullSession(deps, session.id, sessionTake, now);

  const address = caller.addressHash ?? null;
  const tally = limits.heldPerAddress > 0 && address !== null;
  const locked = tally && holdLocksOn();
  const newCarts = limits.newCartsPerAddress > 0 && address !== null;
  const windowMs = LIMITS.cart_create_ip.windowSeconds * 1000;
  const n = prepared.rows.length;
  const expiresAt = new Date(now.getTime() + holdSeconds(seller) * 1000);
  const ok = (cte: string) => sql.raw(`(select count(*) from ${cte}) = 1`);
  const col = (v: unknown, type: string) => sql`${v}::${sql.raw(type)}`;
  const values: RawBuilder<unknown>[] = prepared.rows.map(
    (r) =>
      sql`(${sql.join([
        col(r.event_template_id, 'uuid'),
        col(r.ticket_group_id, 'uuid'),
        col(r.ticket_type_id, 'uuid'),
        col(r.handler, 'text'),
        col(r.admit_name, 'text'),
        col(r.admit_email, 'text'),
        col(r.face_value, 'int'),
        col(r.adjusted_value, 'int'),
        col(r.fees, 'int'),
        col(r.handler_data, 'jsonb'),
      ])})`,
  );
  const groupValues = groups.map(
    ({ g, n: count }) => sql`(${col(g.id, 'uuid')}, ${col(g.capacity, 'int')}, ${col(g.oversell_capacity, 'int')}, ${col(count, 'int')})`,
  );
  // Statement 3 commits asynchronously (synchronous_commit off for its own transaction only): PostgreSQL answers before
  // the hold's WAL record is flushed, and the WAL writer flushes it within about 0.6 s. A hold is not money: if the
  // database itself crashed in that moment, the cart would be lost whole (its capacity take, cart row and tickets are
  // one transaction; WAL replays in order, so nothing is ever half kept or oversold) and the shopper reserves again.
  // Orders, payments and everything else commit synchronously, and a checkout's commit flushes the holds before it.
  // Prepared on PostgreSQL (server/db/prepared.ts): an on-sale sends this text again and again.
  const query = sql<Ticket & { ok: number; c_number: string; c_created_at: Date }>`${sql.raw(PREPARED)}
    with lk as (select ${locked ? sql`pg_advisory_xact_lock(hashtextextended(${addressLockKey(seller.id, address ?? '')}, 0))` : sql`null`} as l),
    rl as (${
      newCarts
        ? sql`insert into rate_limit (key, window_start, count)
          values (${`cart_create_ip:${address}`}, ${new Date(Math.floor(now.getTime() / windowMs) * windowMs)}, 1)
          on conflict (key, window_start) do update set count = rate_limit.count + 1
          where rate_limit.count < ${limits.newCartsPerAddress} returning 1`
        : sql`select 1`
    }),
    ht as (${
      tally
        ? sql`insert into hold_tally (address_hash, scope_id, held) select ${address}::text, ${sessionId}::uuid, ${n}::int from lk
          ${locked ? sql`where ${n}::int <= ${limits.heldPerAddress}::int` : sql``}
          on conflict (address_hash, scope_id) do update set held = hold_tally.held + excluded.held
          ${locked ? sql`where hold_tally.held + excluded.held <= ${limits.heldPerAddress}` : sql``} returning 1`
        : sql`select 1`
    }),
    s as (update event_session set used_capacity = used_capacity + ${sessionTake}
      where id = ${sessionId} and ${ok('ht')} and ${ok('rl')}
      -- the session as it is now, whatever the kept catalogue says: still on, not yet started
      and state = 'active' and start_datetime > ${now}::timestamptz
      ${guard ? sql`and (capacity < 0 or used_capacity + ${sessionTake} <= capacity + oversell_capacity)` : sql``} returning id),
    g as (insert into session_ticket_group (event_session_id, ticket_group_id, capacity, oversell_capacity, used_capacity)
      select s.id, v.gid, v.cap, v.over, v.n from s, (values ${sql.join(groupValues)}) v(gid, cap, over, n)
      on conflict (event_session_id, ticket_group_id) do update
        set used_capacity = session_ticket_group.used_capacity + excluded.used_capacity
      ${
        guard
          ? sql`where session_ticket_group.capacity < 0 or session_ticket_group.used_capacity + excluded.used_capacity
          <= session_ticket_group.capacity + session_ticket_group.oversell_capacity`
          : sql``
      } returning 1),
    c as (insert into cart (id, seller_id, identity_id, owner_token_hash, address_hash, channel_id, additional_info, expires_at)
      select ${cartId}::uuid, ${seller.id}::uuid, ${identityId}::uuid, ${caller.tokenHash}::text, ${address}::text, 'web', '{}',
        ${expiresAt}::timestamptz
      where (select count(*) from g) = ${groups.length} returning cart_number, created_at),
    t as (insert into ticket (seller_id, cart_id, event_session_id, state, valid_from, valid_to, seat_id, additional_info,
        event_template_id, ticket_group_id, ticket_type_id, handler, admit_name, admit_email, face_value, adjusted_value, fees,
        handler_data)
      select ${seller.id}::uuid, ${cartId}::uuid, ${sessionId}::uuid, 'in_cart', ${session.start_datetime}::timestamptz,
        ${session.end_datetime}::timestamptz, null, '{}', v.*
      from c, (values ${sql.join(values)}) v returning *)
    select chk.ok, c.cart_number as c_number, c.created_at as c_created_at, t.*
    from (select 1 / (case when (select count(*) from t) = ${n} then 1 else 0 end) as ok,
      (select set_config('synchronous_commit', 'off', true)) as async_commit) chk
      left join c on true left join t on true`;
  let rows: Array<Ticket & { ok: number; c_number: string; c_created_at: Date }>;
  try {
    rows = (await query.execute(deps.db)).rows;
  } catch (err) {
    if (ABORTED.has((err as { code?: string }).code ?? '')) return guard ? refuseFullSession(deps, sessionId, sessionTake, now) : null;
    throw err;
  }

  const tickets: Ticket[] = rows
    .map(({ ok: _ok, c_number: _n, c_created_at: _c, ...t }) => t as Ticket)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const cart: Cart = {
    id: cartId,
    seller_id: seller.id,
    cart_number: String(rows[0].c_number),
    state: 'pending',
    identity_id: identityId,
    owner_token_hash: caller.tokenHash,
    address_hash: address,
    channel_id: 'web',
    campaign: null,
    expires_at: expiresAt,
    extended_at: null,
    auto_renew: false,
    giftee_identity_id: null,
    additional_info: {},
    created_at: new Date(rows[0].c_created_at),
    updated_at: new Date(rows[0].c_created_at),
    edit_order_id: null,
  };
  const answerTypes = new Set(tickets.map((t) => t.ticket_type_id));
  const rel = {
    types: cat.types.filter((t) => answerTypes.has(t.id)),
    groups: cat.groups.filter((g) => prepared.perGroup.has(g.id)),
    templates: [cat.event!],
    sessions: [session],
    venues: cat.venue ? [cat.venue] : [],
    seats: new Map(),
  } as Parameters<typeof cartAnswer>[1]['rel'];
  return cartAnswer(deps, { cart, seller, all: tickets, rel, paid: 0, mods: [], orders: [], now }, { embed: args.embed });
}
