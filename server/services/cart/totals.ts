import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { grandTotals } from '../../../src/domain/cart-rules';

/** The cart's totals from its tickets (spec section 9 pricing): shared by the cart answer, the checkout and gift cards. */

/** Priced lines of the totals: each ticket at its price before promo codes (the codes' discounts are the cartmod amount). */
export function linesOf(
  tickets: Array<{ adjusted_value: number; cartmod_amount?: number; fees: number; handler_data: Record<string, any> }>,
) {
  return tickets.map((t) => ({
    adjusted_value: t.adjusted_value + (t.cartmod_amount ?? 0),
    fee_fixed: Number(t.handler_data?.fee_fixed ?? t.fees),
    fee_percent: Number(t.handler_data?.fee_percent ?? 0),
  }));
}

/** What the cart's promo codes take off its tickets, minor units. */
export const cartmodOf = (tickets: Array<{ cartmod_amount?: number }>) => tickets.reduce((s, t) => s + (t.cartmod_amount ?? 0), 0);

/**
 * What the cart owes now: its live tickets less what was already paid on it. An edit cart (issue 17) has paid, too,
 * what the order paid for the tickets it replaces: that counts among its payments (one statement reads both).
 */
export async function cartTotals(trx: Kysely<Database>, cartId: string) {
  const tickets = await trx.selectFrom('ticket').selectAll().where('cart_id', '=', cartId).where('state', '=', 'in_cart').execute();
  const { rows } = await sql<{ paid: number; credit: number }>`
    select
      (select coalesce(sum(amount), 0) from payment where cart_id = ${cartId} and status = 'succeeded')::int as paid,
      ${editCreditSql(cartId)} as credit`.execute(trx);
  const paid = Number(rows[0]?.paid ?? 0) + Number(rows[0]?.credit ?? 0);
  return { tickets, totals: grandTotals(linesOf(tickets), paid, cartmodOf(tickets)) };
}

/** What was paid for the booked tickets an edit cart's live tickets replace (0 for any other cart), as one expression. */
export const editCreditSql = (cartId: string) =>
  sql<number>`(select coalesce(sum(o.adjusted_value + o.fees), 0) from ticket n join ticket o on o.id = n.replaces_ticket_id
    where n.cart_id = ${cartId} and n.state = 'in_cart')::int`;
