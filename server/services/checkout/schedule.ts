import type { Kysely } from 'kysely';
import type { Deps } from '../../deps';
import type { Database } from '../../db/types';
import { DomainError, notFound } from '../errors';
import { cartErrors } from '../cart/errors';
import { cartTotals } from '../cart/totals';
import { paidTowardsPlan } from '../../../src/domain/payment-schedule';

/**
 * Scheduled payments (issue 13): the box office puts a held cart on a plan (PUT staff/cart/{id}/payment_schedule), the
 * visitor pays it in parts at checkout, at least what is due each time, and the cart is booked when the last part is in.
 */
export function scheduleOf(db: Kysely<Database>, cartId: string) {
  return db
    .selectFrom('payment_schedule')
    .select(['id', 'due_on', 'amount', 'created_at'])
    .where('cart_id', '=', cartId)
    .orderBy('due_on')
    .orderBy('id')
    .execute();
}

/** The plan's parts and what has been paid towards them (payments since the plan was set). */
export async function planOf(db: Kysely<Database>, cartId: string) {
  const parts = await scheduleOf(db, cartId);
  if (parts.length === 0) return { parts, paid: 0 };
  const payments = await db
    .selectFrom('payment')
    .select(['amount', 'occurred_on'])
    .where('cart_id', '=', cartId)
    .where('status', '=', 'succeeded')
    .execute();
  return { parts, paid: paidTowardsPlan(parts, payments) };
}

const invalid = (field: string, description: string) => new DomainError('validation_failed', description, 'payment_schedule', { field });

/**
 * Replaces a pending cart's plan. The parts must add up to what the cart owes now, and the cart is held from then on:
 * it no longer runs out of time (its tickets stay in it until paid, or until the box office cancels it).
 */
export async function setPaymentSchedule(
  deps: Deps,
  sellerId: string,
  cartId: string,
  parts: Array<{ due_on: Date; amount: number }>,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const cart = await trx
      .selectFrom('cart')
      .selectAll()
      .where('id', '=', cartId)
      .where('seller_id', '=', sellerId)
      .forUpdate()
      .executeTakeFirst();
    if (!cart) throw notFound('cart', cartId);
    if (cart.state !== 'pending') throw cartErrors.notPending(cartId, cart.state);
    const { tickets, totals } = await cartTotals(trx, cartId);
    if (tickets.length === 0) throw new DomainError('cart_empty', 'The cart holds no tickets.', 'payment_schedule');
    const sum = parts.reduce((s, p) => s + p.amount, 0);
    if (sum !== totals.total_outstanding) {
      throw invalid('parts', 'The parts must add up to what the cart owes.');
    }
    await trx.deleteFrom('payment_schedule').where('cart_id', '=', cartId).execute();
    await trx
      .insertInto('payment_schedule')
      .values(parts.map((p) => ({ seller_id: sellerId, cart_id: cartId, due_on: p.due_on, amount: p.amount, created_at: deps.now() })))
      .execute();
    await trx.updateTable('cart').set({ expires_at: null, updated_at: deps.now() }).where('id', '=', cartId).execute();
  });
}
