import { sql } from 'kysely';
import type { Db } from '../db';
import type { TicketGroup } from '../db/types';
import { salesOpen } from '../../src/domain/availability';
import { addDays, datesInRange } from '../../src/domain/dates';
import { keptStartOfVenueDay } from './calendar-dates';
import type { EventContext } from './event-context';
import { primaryType } from './sessions';
import { PREPARED } from '../db/prepared';

/**
 * What a calendar day needs of its sessions, aggregated by the database in one statement: the read side of
 * capacity (inventory-read.ts computeSessionState) and the session prices (sessions.ts sessionFigures) per session,
 * then per venue-local day. A 120-day calendar of ~2,000 sessions and ~4,000 group rows answers 120 rows instead of
 * travelling as 6,000 rows to be aggregated in JavaScript (issue 19).
 *
 * Each considered group is a column set of its own (groupColumns): a session's group rows are joined by their key, one
 * per group, and the session's figures are expressions over them, with no grouping back by session. Measured on the
 * demo's 120-day calendar (1,920 sessions, 2 groups) one statement at a time on PostgreSQL: 13.9 ms when the groups
 * were joined as a set and aggregated per session with ordered array_aggs, 9.4 ms pivoted. A lateral lookup per
 * session and group cost about 22 µs a session (54 ms for the demo's 1,900 sessions).
 *
 * Days are cut at instants computed by src/domain/dates.ts (the one time-zone module): the database never converts
 * a zone, it puts each session between the starts of two venue days (width_bucket over the sorted day starts).
 */
export interface DayFigures {
  /** Sessions that day, and those not sold out. */
  sessions: number;
  open: number;
  /** The cheapest priced session (open ones when any, else all): its lowest price, its shown price, its increase. */
  minPrice: number | null;
  price: number | null;
  increase: number | null;
  /** sumAvailable of the open sessions' and of all sessions' capacity; used summed over all. */
  remaining: number;
  capacity: number;
  used: number;
}

/** Per considered group: what a session's state and prices need of it, worked out once per request. */
function groupParams(ctx: EventContext, groups: TicketGroup[], now: Date) {
  return groups.map((g) => {
    const types = ctx.types.filter((t) => t.ticket_group_id === g.id && !t.member_only);
    const bases = types.map((t) => t.discounted_price ?? t.price);
    // primaryType() takes the first match in ctx.types order among the pool's types: its index orders the groups.
    const primary = primaryType(ctx, types);
    const primaryRank = primary ? ctx.types.indexOf(primary) : null;
    return {
      id: g.id,
      capacity: g.capacity,
      oversell: g.oversell_capacity,
      exclude: g.exclude_from_event_capacity,
      on_sale: salesOpen(g, now),
      // effectivePrice(t, increase) = max(0, base + increase) is monotone in base: the cheapest type of a pool
      // has the lowest base whatever the increase, so the database only needs each group's lowest base.
      min_base: bases.length ? Math.min(...bases) : null,
      primary_rank: primaryRank,
      primary_base: primary ? (primary.discounted_price ?? primary.price) : null,
    };
  });
}

interface DayRow {
  day: number;
  sessions: number;
  open: number;
  min_price: number | null;
  price: number | null;
  increase: number | null;
  remaining: number;
  capacity: number;
  used: number;
}

type GroupParam = ReturnType<typeof groupParams>[number];

/**
 * The per-group parts of the statement, one column set per considered group (a session's groups side by side, as the
 * session_ticket_group row of each joined by its key): what is left of the group in the session, whether the session
 * is sold out, and its price pool. Pivoting beats joining the sessions with the groups as a set and grouping back by
 * session, which cost about 60 % of the statement (3,840 session-group rows hashed and aggregated for the demo).
 */
function groupColumns(params: GroupParam[]) {
  const num = (v: number | null) => sql`${v}::int`;
  const joins = params.map(
    (g, i) =>
      sql`left join session_ticket_group ${sql.ref(`r${i}`)} on ${sql.ref(`r${i}.event_session_id`)} = s.id
        and ${sql.ref(`r${i}.ticket_group_id`)} = ${g.id}::uuid`,
  );
  const avail = params.map((g, i) => {
    const r = (column: string) => sql.ref(`r${i}.${column}`);
    const size = sql`coalesce(${r('capacity')}, ${num(g.capacity)})`;
    // an expired hold of the group in this session frees its place in the group (x below)
    const used = sql`greatest(0, coalesce(${r('used_capacity')}, 0) - coalesce(${sql.ref(`xs.n${i}`)}, 0))`;
    return g.on_sale
      ? sql`case when ${size} < 0 then -1
          else greatest(0, ${size} + coalesce(${r('oversell_capacity')}, ${num(g.oversell)}) - ${used}) end`
      : sql`0`;
  });
  const expired = params.map((g, i) => sql`sum(n) filter (where gid = ${g.id}::uuid) as ${sql.ref(`n${i}`)}`);
  const a = (i: number) => sql.ref(`a${i}`);
  // no considered group: sold out, unpriced
  const soldOut = params.length
    ? sql.join(
        params.map((g, i) => (g.exclude ? sql`${a(i)} = 0` : sql`(${a(i)} = 0 or available = 0)`)),
        sql` and `,
      )
    : sql`true`;
  const anyOpen = params.length
    ? sql.join(
        params.map((_, i) => sql`${a(i)} <> 0`),
        sql` or `,
      )
    : sql`false`;
  const least = (parts: ReturnType<typeof sql>[]) => (parts.length ? sql`least(${sql.join(parts)})` : sql`null::int`);
  // the price pool: groups still available in the session, all considered groups when none is
  const minBase = sql`case when ${anyOpen}
    then ${least(params.map((g, i) => sql`case when ${a(i)} <> 0 then ${num(g.min_base)} end`))}
    else ${least(params.map((g) => num(g.min_base)))} end`;
  // the primary type's price: of the pool's group whose primary type comes first (primary_rank)
  const ranked = params.map((g, i) => ({ g, i })).filter(({ g }) => g.primary_rank !== null);
  ranked.sort((x, y) => x.g.primary_rank! - y.g.primary_rank!);
  const primaryBase = ranked.length
    ? sql`case when ${anyOpen}
        then case ${sql.join(
          ranked.map(({ g, i }) => sql`when ${a(i)} <> 0 then ${num(g.primary_base)}`),
          sql` `,
        )} end
        else ${num(ranked[0].g.primary_base)} end`
    : sql`null::int`;
  const availColumns = params.length ? sql`, ${sql.join(avail.map((e, i) => sql`${e} as ${a(i)}`))}` : sql``;
  const expiredColumns = params.length ? sql`, ${sql.join(expired)}` : sql``;
  return { joins: sql.join(joins, sql` `), availColumns, expiredColumns, soldOut, minBase, primaryBase };
}

/**
 * The figures of each venue date from start to end (both included), keyed by date; days without sessions are absent.
 * Sessions considered: the event's active ones starting in those days and not before now.
 */
export async function loadCalendarDays(
  db: Db,
  ctx: EventContext,
  groups: TicketGroup[],
  start: string,
  end: string,
  now: Date,
): Promise<Map<string, DayFigures>> {
  const dates = datesInRange(start, end);
  const bounds = [...dates, addDays(end, 1)].map((d) => keptStartOfVenueDay(d, ctx.tz).toISOString());
  const from = new Date(Math.max(now.getTime(), Date.parse(bounds[0])));
  const to = new Date(bounds[bounds.length - 1]);
  const params = groupParams(ctx, groups, now);
  const c = groupColumns(params);
  // an expired hold frees session capacity unless its group is a considered one excluded from it
  const excluded = params.filter((g) => g.exclude).map((g) => g.id);
  // Prepared on PostgreSQL (server/db/prepared.ts), one text per number of considered groups and of those that are
  // on sale or excluded: parse and plan were 3.3 ms of 12.7 ms on the demo's calendar.
  const { rows } = await sql<{ days: DayRow[] }>`${sql.raw(PREPARED)}
    with x as (
      -- holds of expired carts still counted until the sweeper releases them (DESIGN.md section 4)
      select t.event_session_id as sid, t.ticket_group_id as gid, count(*)::int as n
      from ticket t join cart c on c.id = t.cart_id
      where t.event_template_id = ${ctx.event.id} and t.state in ('in_cart', 'held') and c.state = 'pending'
        and c.expires_at <= ${now}
      group by 1, 2
    ), xs as materialized (
      select sid, sum(n) filter (where gid <> all(${excluded}::uuid[])) as n ${c.expiredColumns} from x group by sid
    ), bounds as (
      select array_agg(b::timestamptz order by n) as b from jsonb_array_elements_text(${JSON.stringify(bounds)}::jsonb)
        with ordinality as b(b, n)
    ), ss as materialized (
      -- the sessions in range: the read side of their own capacity, then of each considered group's (materialized:
      -- inlined, each group's availability expression was worked out again in every expression below that uses it)
      select s.id, s.start_datetime, s.capacity, s.price_increase, u.used, av.available,
        width_bucket(s.start_datetime, (select b from bounds)) as day ${c.availColumns}
      from event_session s
      left join xs on xs.sid = s.id
      ${c.joins}
      cross join lateral (select greatest(0, s.used_capacity - coalesce(xs.n, 0))::int as used) u
      cross join lateral (select case when s.capacity < 0 then -1
        else greatest(0, s.capacity + s.oversell_capacity - u.used) end as available) av
      where s.event_template_id = ${ctx.event.id} and s.state = 'active' and s.start_datetime >= ${from}
        and s.start_datetime < ${to}
    ), st as (
      select id, start_datetime, capacity, price_increase, used, available, day, ${c.soldOut} as sold_out,
        ${c.minBase} as min_base, ${c.primaryBase} as primary_base
      from ss
    ), sp as (
      -- each day's shown session: the first open one by price, then start (a sold-out day: the first of all)
      select st.*, mp.min_price,
        row_number() over (partition by day order by sold_out, mp.min_price, start_datetime, id) as rank
      from st cross join lateral (select case when min_base is null then null
        else greatest(0, min_base + price_increase) end as min_price) mp
    ), d as (
      select day, count(*)::int as sessions, count(*) filter (where not sold_out)::int as open,
        min(min_price) filter (where rank = 1) as min_price,
        min(case when primary_base is null then min_price else greatest(0, primary_base + price_increase) end)
          filter (where rank = 1 and min_price is not null) as price,
        min(price_increase) filter (where rank = 1 and min_price is not null) as increase,
        case when bool_or(available < 0 and not sold_out) then -1
          else coalesce(sum(available) filter (where not sold_out), 0) end::int as remaining,
        case when bool_or(capacity < 0) then -1 else sum(capacity) end::int as capacity,
        sum(used)::int as used
      from sp group by day
    )
    select coalesce(json_agg(json_build_object('day', day, 'sessions', sessions, 'open', open,
      'min_price', min_price, 'price', price, 'increase', increase,
      'remaining', remaining, 'capacity', capacity, 'used', used)), '[]'::json) as days
    from d`.execute(db);
  const out = new Map<string, DayFigures>();
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  for (const r of rows[0].days) {
    out.set(dates[r.day - 1], {
      sessions: r.sessions,
      open: r.open,
      minPrice: num(r.min_price),
      price: num(r.price),
      increase: num(r.increase),
      remaining: r.remaining,
      capacity: r.capacity,
      used: r.used,
    });
  }
  return out;
}
