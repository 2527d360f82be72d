import { sql, type Transaction } from 'kysely';
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

/** What the cart owes now: its live tickets less what was already paid on it. */
export async function cartTotals(trx: Transaction<Database>, cartId: string) {
  const tickets = await trx.selectFrom('ticket').selectAll().where('cart_id', '=', cartId).where('state', '=', 'in_cart').execute();
  const paid = await trx
    .selectFrom('payment')
    .select(sql<number>`coalesce(sum(amount), 0)::int`.as('sum'))
    .where('cart_id', '=', cartId)
    .where('status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  return { tickets, totals: grandTotals(linesOf(tickets), Number(paid.sum), cartmodOf(tickets)) };
}
