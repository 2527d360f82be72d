import { sql } from 'kysely';
import type { Db } from '../db';
import type { TicketGroup } from '../db/types';
import { salesOpen } from '../../src/domain/availability';
import { addDays, datesInRange, startOfVenueDay } from '../../src/domain/dates';
import type { EventContext } from './event-context';
import { primaryType } from './sessions';
import { PREPARED } from '../db/prepared';

/**
 * What a calendar day needs of its sessions, aggregated by the database in one statement: the read side of
 * capacity (inventory-read.ts computeSessionState) and the session prices (sessions.ts sessionFigures) per session,
 * then per venue-local day. A 120-day calendar of ~2,000 sessions and ~4,000 group rows answers 120 rows instead of
 * travelling as 6,000 rows to be aggregated in JavaScript (issue 19).
 *
 * The sessions and the considered groups are joined as sets (hash joins), not looked up session by session: a
 * lateral lookup per session and group cost about 22 µs a session (54 ms for the demo's 1,900 sessions).
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
  const bounds = [...dates, addDays(end, 1)].map((d) => startOfVenueDay(d, ctx.tz).toISOString());
  const from = new Date(Math.max(now.getTime(), Date.parse(bounds[0])));
  const to = new Date(bounds[bounds.length - 1]);
  const params = JSON.stringify(groupParams(ctx, groups, now));
  // Prepared on PostgreSQL (server/db/prepared.ts): parse and plan were 3.3 ms of its 12.7 ms on the demo's calendar.
  const { rows } = await sql<{ days: DayRow[] }>`${sql.raw(PREPARED)}
    with g as (
      select * from jsonb_to_recordset(${params}::jsonb) as g(id uuid, capacity int, oversell int, exclude boolean,
        on_sale boolean, min_base int, primary_rank int, primary_base int)
    ), x as (
      -- holds of expired carts still counted until the sweeper releases them (DESIGN.md section 4)
      select t.event_session_id as sid, t.ticket_group_id as gid, count(*)::int as n
      from ticket t join cart c on c.id = t.cart_id
      where t.event_template_id = ${ctx.event.id} and t.state in ('in_cart', 'held') and c.state = 'pending'
        and c.expires_at <= ${now}
      group by 1, 2
    ), xs as materialized (
      -- an expired hold frees session capacity unless its group is a considered one excluded from it
      select x.sid, sum(x.n) filter (where not coalesce(g.exclude, false)) as n from x left join g on g.id = x.gid group by x.sid
    ), bounds as (
      select array_agg(b::timestamptz order by n) as b from jsonb_array_elements_text(${JSON.stringify(bounds)}::jsonb)
        with ordinality as b(b, n)
    ), ss as (
      -- the sessions in range, with the read side of their own capacity
      select s.id, s.start_datetime, s.capacity, s.price_increase, u.used, a.available,
        width_bucket(s.start_datetime, (select b from bounds)) as day
      from event_session s
      left join xs on xs.sid = s.id
      cross join lateral (select greatest(0, s.used_capacity - coalesce(xs.n, 0))::int as used) u
      cross join lateral (select case when s.capacity < 0 then -1
        else greatest(0, s.capacity + s.oversell_capacity - u.used) end as available) a
      where s.event_template_id = ${ctx.event.id} and s.state = 'active' and s.start_datetime >= ${from}
        and s.start_datetime < ${to}
    ), st as (
      -- every session with every considered group, joined as sets (a session without its own group row sells the
      -- group at the group's per-session size; one without considered groups is sold out), grouped back by session
      select ss.id, ss.start_datetime, ss.capacity, ss.price_increase, ss.used, ss.available, ss.day,
        coalesce(bool_and(ga.avail = 0 or (not g.exclude and ss.available = 0)), true) as sold_out,
        -- the price pool: groups still available in the session, all considered groups when none is
        case when bool_or(ga.avail <> 0) then min(g.min_base) filter (where ga.avail <> 0) else min(g.min_base) end
          as min_base,
        case when bool_or(ga.avail <> 0)
          then (array_agg(g.primary_base order by g.primary_rank) filter (where ga.avail <> 0 and g.primary_rank is not null))[1]
          else (array_agg(g.primary_base order by g.primary_rank) filter (where g.primary_rank is not null))[1] end
          as primary_base
      from ss
      left join g on true
      left join session_ticket_group r on r.event_session_id = ss.id and r.ticket_group_id = g.id
      left join x on x.sid = ss.id and x.gid = g.id
      cross join lateral (select case when g.id is null then null when not g.on_sale then 0
        when coalesce(r.capacity, g.capacity) < 0 then -1
        else greatest(0, coalesce(r.capacity, g.capacity) + coalesce(r.oversell_capacity, g.oversell)
          - greatest(0, coalesce(r.used_capacity, 0) - coalesce(x.n, 0))) end as avail) ga
      group by ss.id, ss.start_datetime, ss.capacity, ss.price_increase, ss.used, ss.available, ss.day
    ), sp as (
      select st.*, case when min_base is null then null else greatest(0, min_base + price_increase) end as min_price,
        count(*) filter (where not sold_out) over (partition by day) as day_open
      from st
    ), d as (
      select day, count(*)::int as sessions, count(*) filter (where not sold_out)::int as open,
        (array_agg(json_build_array(min_price,
          case when primary_base is null then min_price else greatest(0, primary_base + price_increase) end, price_increase)
          order by min_price, start_datetime, id)
          filter (where min_price is not null and (not sold_out or day_open = 0)))[1] as best,
        case when bool_or(available < 0 and not sold_out) then -1
          else coalesce(sum(available) filter (where not sold_out), 0) end::int as remaining,
        case when bool_or(capacity < 0) then -1 else sum(capacity) end::int as capacity,
        sum(used)::int as used
      from sp group by day
    )
    select coalesce(json_agg(json_build_object('day', day, 'sessions', sessions, 'open', open,
      'min_price', best->>0, 'price', best->>1, 'increase', best->>2,
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
