import { membershipRow, roleRow } from '../membership/rows';
import type { Deps } from '../../deps';
import { table, type TableOf } from '../../../src/contract/tables';
import type { MyMembershipsAnswer, MyOrdersAnswer, MySessionsAnswer, OrderSessionRow } from '../../../src/contract/account';
import type { CartEventTemplateRow, CartSessionRow, CartTicketGroupRow, CartTicketTypeRow, CartVenueRow } from '../../../src/contract/cart';
import { catalogueWire, orderWire, relatedRows, ticketWire } from '../cart/view';

/**
 * The account area's reads. Everything is scoped by the logged-in identity in the WHERE clause itself:
 * no id a client sends can reach another user's orders, sessions or memberships.
 */
export interface ListOpts {
  embed: Set<string>;
  limit: number;
  offset: number;
}
const instant = (d: Date | string) => new Date(d).toISOString();
const leaf = (embed: Set<string>) => new Set([...embed].map((e) => e.split('.').pop()!));

/** The catalogue tables a my/* read embeds. */
interface CatalogueTables {
  ticket_type?: TableOf<CartTicketTypeRow>;
  ticket_group?: TableOf<CartTicketGroupRow>;
  event_template?: TableOf<CartEventTemplateRow>;
  event_session?: TableOf<CartSessionRow>;
  venue?: TableOf<CartVenueRow>;
}

/** The catalogue rows the tickets refer to, for the tables `embed` names. */
function catalogueTables(embed: Set<string>, rel: Awaited<ReturnType<typeof relatedRows>>): CatalogueTables {
  const cat = catalogueWire(rel);
  const out: CatalogueTables = {};
  if (embed.has('ticket_type')) out.ticket_type = table(cat.ticket_type);
  if (embed.has('ticket_group')) out.ticket_group = table(cat.ticket_group);
  if (embed.has('event_template')) out.event_template = table(cat.event_template);
  if (embed.has('event_session')) out.event_session = table(cat.event_session);
  if (embed.has('venue')) out.venue = table(cat.venue);
  return out;
}

/** GET my/ticket_order: the user's orders, newest first; embeds ticket and the catalogue rows. */
export async function myOrders(deps: Deps, identityId: string, opts: ListOpts & { ids?: string[] }): Promise<MyOrdersAnswer> {
  let q = deps.db.selectFrom('ticket_order').where('identity_id', '=', identityId);
  if (opts.ids?.length) q = q.where('id', 'in', opts.ids);
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const orders = await q.selectAll().orderBy('purchased_on', 'desc').orderBy('id').limit(opts.limit).offset(opts.offset).execute();
  const tickets = orders.length
    ? await deps.db
        .selectFrom('ticket')
        .selectAll()
        .where(
          'ticket_order_id',
          'in',
          orders.map((o) => o.id),
        )
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    : [];
  const embed = leaf(opts.embed);
  const rel = await relatedRows(deps.db, tickets);
  return {
    ticket_order: table(
      orders.map((o) => orderWire(o)),
      Number(count.n),
    ),
    ...(embed.has('ticket') ? { ticket: table(tickets.map((t) => ticketWire(t, rel))) } : {}),
    ...catalogueTables(embed, rel),
  };
}

/** GET my/order_session: sessions the user holds tickets for in the given states (default booked, redeemed). */
export async function mySessions(
  deps: Deps,
  identityId: string,
  opts: ListOpts & { states: string[]; from?: Date; id?: string },
): Promise<MySessionsAnswer> {
  const tickets = await deps.db
    .selectFrom('ticket')
    .innerJoin('ticket_order', 'ticket_order.id', 'ticket.ticket_order_id')
    .innerJoin('event_session', 'event_session.id', 'ticket.event_session_id')
    .selectAll('ticket')
    .where('ticket_order.identity_id', '=', identityId)
    .where('ticket.state', 'in', opts.states as never)
    .$if(!!opts.from, (w) => w.where('event_session.start_datetime', '>=', opts.from!))
    .$if(!!opts.id, (w) => w.where('event_session.id', '=', opts.id!))
    .orderBy('event_session.start_datetime')
    .orderBy('ticket.id')
    .execute();
  const rel = await relatedRows(deps.db, tickets);
  const sessions = [...rel.sessions].sort((a, b) => new Date(a.start_datetime).getTime() - new Date(b.start_datetime).getTime());
  const page = sessions.slice(opts.offset, opts.offset + opts.limit);
  const shown = new Set(page.map((s) => s.id));
  const embed = leaf(opts.embed);
  const rows = page.map((s): OrderSessionRow => {
    const mine = tickets.filter((t) => t.event_session_id === s.id);
    const template = rel.templates.find((e) => e.id === s.event_template_id);
    // The join on ticket_order above: every one of these tickets has its order.
    const orderIds = mine.map((t) => t.ticket_order_id).filter((id): id is string => id !== null);
    return {
      id: s.id,
      event_template_id: s.event_template_id,
      name: template?.name ?? null,
      start_datetime: instant(s.start_datetime),
      end_datetime: instant(s.end_datetime),
      timezone: rel.venues.find((v) => v.id === template?.venue_id)?.timezone ?? null,
      ticket_count: mine.length,
      ticket_order_ids: [...new Set(orderIds)],
    };
  });
  return {
    order_session: table(rows, sessions.length),
    ...(embed.has('ticket') ? { ticket: table(tickets.filter((t) => shown.has(t.event_session_id!)).map((t) => ticketWire(t, rel))) } : {}),
    ...catalogueTables(embed, rel),
  };
}

/** GET my/membership: the user's memberships, newest term first; embeds role, its program, order and ticket. */
export async function myMemberships(deps: Deps, identityId: string, opts: ListOpts): Promise<MyMembershipsAnswer> {
  const rows = await deps.db
    .selectFrom('membership')
    .selectAll()
    .where('identity_id', '=', identityId)
    .orderBy('valid_to', 'desc')
    .orderBy('id')
    .limit(opts.limit)
    .offset(opts.offset)
    .execute();
  const embed = leaf(opts.embed);
  const roleIds = [...new Set(rows.map((m) => m.role_id))];
  const roles = roleIds.length ? await deps.db.selectFrom('role').selectAll().where('id', 'in', roleIds).execute() : [];
  const out: MyMembershipsAnswer = {
    membership: table(rows.map((m) => membershipRow(m, roles.find((r) => r.id === m.role_id)?.benefits ?? []))),
  };
  if (embed.has('role')) {
    out.role = table(roles.map(roleRow));
  }
  if (embed.has('membership_program')) {
    const ids = [...new Set(rows.map((m) => m.membership_program_id))];
    out.membership_program = table(
      ids.length ? await deps.db.selectFrom('membership_program').select(['id', 'name', '_rank']).where('id', 'in', ids).execute() : [],
    );
  }
  const orderIds = rows.map((m) => m.ticket_order_id).filter((v): v is string => !!v);
  if (embed.has('ticket_order')) {
    out.ticket_order = table(
      orderIds.length
        ? (await deps.db.selectFrom('ticket_order').selectAll().where('id', 'in', orderIds).execute()).map((o) => orderWire(o))
        : [],
    );
  }
  const ticketIds = rows.map((m) => m.ticket_id).filter((v): v is string => !!v);
  const tickets = ticketIds.length ? await deps.db.selectFrom('ticket').selectAll().where('id', 'in', ticketIds).execute() : [];
  const rel = await relatedRows(deps.db, tickets);
  if (embed.has('ticket')) out.ticket = table(tickets.map((t) => ticketWire(t, rel)));
  return { ...out, ...catalogueTables(embed, rel) };
}
