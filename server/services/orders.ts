import { money } from '../../src/domain/money';
import type { Deps } from '../deps';
import type { TicketOrder } from '../db/types';
import { notFound } from './errors';
import { qrPng } from './qr';
import { table } from '../../src/contract/tables';
import type { OrderAnswer } from '../../src/contract/cart';
import { isCartOwner, isOwnerToken, isUuid, sha256, type Caller } from './cart/access';
import { catalogueWire, orderWire, relatedRows, ticketWire } from './cart/view';

/**
 * A ticket order is readable by whoever owns its cart (the owner-token cookie, or the user's identity)
 * and by the holder of the per-order access token handed out at checkout. Anyone else gets 404: order
 * ids are not confirmed to strangers.
 */
export async function loadReadableOrder(deps: Deps, orderId: string, caller: Caller, accessToken?: string) {
  if (!isUuid(orderId)) throw notFound('ticket_order', orderId);
  const order = await deps.db.selectFrom('ticket_order').selectAll().where('id', '=', orderId).executeTakeFirst();
  if (!order || !(await mayReadOrder(deps, order, caller, accessToken))) throw notFound('ticket_order', orderId);
  return order;
}

/** Whether the caller may read the order: by its access token, or as the owner of its cart (cookie or identity). */
export async function mayReadOrder(deps: Deps, order: TicketOrder, caller: Caller, accessToken?: string): Promise<boolean> {
  if (isOwnerToken(accessToken) && order.access_token_hash === sha256(accessToken)) return true;
  const cart = await deps.db
    .selectFrom('cart')
    .select(['identity_id', 'owner_token_hash'])
    .where('id', '=', order.cart_id)
    .executeTakeFirst();
  return !!cart && isCartOwner(cart, caller);
}

/** GET ticket_order/{id}: the order and, as asked by _embed (all when absent), its tickets and catalogue rows. */
export async function orderView(
  deps: Deps,
  orderId: string,
  caller: Caller,
  opts: { accessToken?: string; embed: Set<string> },
): Promise<OrderAnswer> {
  return orderTables(deps, await loadReadableOrder(deps, orderId, caller, opts.accessToken), opts.embed);
}

/** The order an edit cart was just booked into (issue 17), answered to the browser that paid for the edit. */
export async function editedOrderAnswer(deps: Deps, orderId: string): Promise<OrderAnswer> {
  const order = await deps.db.selectFrom('ticket_order').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  return orderTables(deps, order, new Set());
}

/** The answer's tables of an order the caller may read, as asked by _embed (all when empty). */
export async function orderTables(deps: Deps, order: TicketOrder, embed: Set<string>): Promise<OrderAnswer> {
  const tickets = await deps.db
    .selectFrom('ticket')
    .selectAll()
    .where('ticket_order_id', '=', order.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const rel = await relatedRows(deps.db, tickets);
  const asked = new Set([...embed].map((e) => e.split('.').pop()!));
  const want = (name: string) => asked.size === 0 || asked.has(name);
  const cat = catalogueWire(rel);
  const out: OrderAnswer = { ticket_order: table([orderWire(order)]) };
  if (want('ticket')) out.ticket = table(tickets.map((t) => ticketWire(t, rel)));
  if (want('ticket_group')) out.ticket_group = table(cat.ticket_group);
  if (want('event_template')) out.event_template = table(cat.event_template);
  if (want('ticket_type')) out.ticket_type = table(cat.ticket_type);
  if (want('event_session')) out.event_session = table(cat.event_session);
  if (want('venue')) out.venue = table(cat.venue);
  const giftTickets = tickets.filter((t) => t.handler === 'ledger').map((t) => t.id);
  if (want('ledger') && giftTickets.length > 0) {
    const cards = await deps.db
      .selectFrom('ledger')
      .select(['ticket_id', 'number', 'balance', 'state'])
      .where('ticket_id', 'in', giftTickets)
      .orderBy('created_at')
      .execute();
    out.ledger = table(cards.map((c) => ({ ticket_id: c.ticket_id!, number: c.number, balance: money(c.balance), state: c.state })));
  }
  return out;
}

/**
 * The order's QR code (PNG). It carries the scan codes of the order's valid tickets, one a line after the
 * order number: the scan codes are unguessable, so a code made up from an order number admits nobody.
 */
export async function orderQrPng(deps: Deps, orderId: string, caller: Caller, accessToken?: string): Promise<Buffer> {
  const order = await loadReadableOrder(deps, orderId, caller, accessToken);
  return qrPng(await orderQrText(deps, order));
}

export async function orderQrText(deps: Deps, order: { id: string; order_number: string }): Promise<string> {
  const tickets = await deps.db
    .selectFrom('ticket')
    .select('scan_code')
    .where('ticket_order_id', '=', order.id)
    .where('state', 'in', ['booked', 'redeemed'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return [`ORDER ${order.order_number}`, ...tickets.map((t) => t.scan_code).filter(Boolean)].join('\n');
}
