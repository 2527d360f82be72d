import { sql, type Kysely, type Transaction } from 'kysely';
import type { Deps } from '../../deps';
import type { Database, Payment } from '../../db/types';
import { DomainError } from '../errors';
import { gatewayFor } from '../payments';
import { cartTotals } from './claim';
import { bookMemberships } from '../membership/book';
import { issueGiftCards } from './gift-card';
import { bookEdit } from '../order-edit';

type Trx = Transaction<Database>;

export type BookOutcome =
  /** `edit`: an edit cart booked into the order it changes (issue 17), not a new order */
  | { kind: 'booked'; orderId: string; edit?: boolean }
  /** Someone else settled the attempt first (the reconciler, when the gateway took longer than it waits). */
  | { kind: 'settled'; status: Payment['status']; orderId: string | null }
  /** The money was taken but the cart is no longer waiting for it: the charge is owed back. */
  | { kind: 'refund_owed' }
  /** A gift card paid part of the cart: the attempt succeeded, the cart is pending again with the rest outstanding. */
  | { kind: 'partial' };

/**
 * Records a charged attempt and books its cart, in one transaction: the attempt succeeded with its order, the order,
 * the tickets booked with scan codes, the cart completed. Both the checkout (after the gateway answered) and the
 * reconciler (after a crash) come through here, so the row lock on the attempt decides who books, once.
 */
export async function bookAttempt(
  trx: Trx,
  deps: Deps,
  attemptId: string,
  charge: { ref: string; accessTokenHash: string | null },
): Promise<BookOutcome> {
  const now = deps.now();
  const attempt = await trx.selectFrom('payment').selectAll().where('id', '=', attemptId).forUpdate().executeTakeFirstOrThrow();
  if (attempt.status !== 'pending') return { kind: 'settled', status: attempt.status, orderId: attempt.ticket_order_id };
  const cart = await trx.selectFrom('cart').selectAll().where('id', '=', attempt.cart_id).forUpdate().executeTakeFirstOrThrow();
  if (cart.state !== 'checking_out' || !attempt.order_identity_id) {
    await owe(trx, attempt.id, charge.ref, now);
    return { kind: 'refund_owed' };
  }
  const { tickets, totals: t } = await cartTotals(trx, cart.id);
  // A part payment (a gift card, or a card on a payment plan: claim() allowed it) leaves the rest outstanding.
  const planned = async () =>
    (await trx.selectFrom('payment_schedule').select('id').where('cart_id', '=', cart.id).limit(1).execute()).length > 0;
  if (tickets.length > 0 && attempt.amount < t.total_outstanding && (attempt.gateway_id === 'ledger' || (await planned()))) {
    await trx
      .updateTable('payment')
      .set({ status: 'succeeded', gateway_ref: charge.ref, occurred_on: now, updated_at: now })
      .where('id', '=', attempt.id)
      .execute();
    await trx.updateTable('cart').set({ state: 'pending', updated_at: now }).where('id', '=', cart.id).execute();
    return { kind: 'partial' };
  }
  // The cart cannot change while it is checking out, so what the attempt charged is still what it owes.
  if (tickets.length === 0 || t.total_outstanding !== attempt.amount) {
    throw new Error(`cart ${cart.id} changed during its checkout`);
  }
  if (cart.edit_order_id) {
    const edited = await bookEdit(trx, { now, cart, attemptId: attempt.id, ref: charge.ref, tickets });
    return edited.kind === 'booked' ? { ...edited, edit: true } : edited;
  }
  await trx.updateTable('cart').set({ state: 'completed', expires_at: null, updated_at: now }).where('id', '=', cart.id).execute();
  const fees = t.total_fee_fixed_outside + t.total_fee_percent_outside;
  const order = await trx
    .insertInto('ticket_order')
    .values({
      seller_id: cart.seller_id,
      identity_id: attempt.order_identity_id,
      cart_id: cart.id,
      purchased_on: now,
      total_before_fees: t.total_before_cartmod_price,
      total_fees: fees,
      total_discount: t.total_cartmod_amount,
      total_after_fees: t.total_before_cartmod_price - t.total_cartmod_amount + fees,
      access_token_hash: charge.accessTokenHash,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('payment')
    .set({ status: 'succeeded', ticket_order_id: order.id, gateway_ref: charge.ref, occurred_on: now, updated_at: now })
    .where('id', '=', attempt.id)
    .execute();
  // The gift cards that paid part of the cart before paid for this order too.
  await trx
    .updateTable('payment')
    .set({ ticket_order_id: order.id, updated_at: now })
    .where('cart_id', '=', cart.id)
    .where('status', '=', 'succeeded')
    .where('ticket_order_id', 'is', null)
    .execute();
  // Scan codes: 122 random bits from the server's CSPRNG (gen_random_uuid), unguessable.
  const booked = await trx
    .updateTable('ticket')
    .set({
      state: 'booked',
      ticket_order_id: order.id,
      scan_code: sql`upper(replace(gen_random_uuid()::text, '-', ''))`,
      additional_info: sql`coalesce((${JSON.stringify(cart.additional_info ?? {})})::jsonb -> ticket_group_id::text, '{}'::jsonb)`,
    })
    .where('cart_id', '=', cart.id)
    .where('state', '=', 'in_cart')
    .returning('id')
    .execute();
  if (booked.length !== tickets.length) throw new Error(`cart ${cart.id} changed during its checkout`);
  // Memberships and gifts of membership are part of the booking: an order never stands without them.
  await bookMemberships(trx, { now, sellerId: cart.seller_id, cartId: cart.id, orderId: order.id, identityId: attempt.order_identity_id });
  // Gift cards bought in the cart are issued with the order, spendable at once.
  await issueGiftCards(trx, { sellerId: cart.seller_id, orderId: order.id });
  return { kind: 'booked', orderId: order.id };
}

/** Marks a charged attempt as owing its refund (from pending, or from failed when it was given up too early). */
async function owe(trx: Kysely<Database>, attemptId: string, ref: string, now: Date) {
  await trx
    .updateTable('payment')
    .set({ status: 'refund_pending', gateway_ref: ref, updated_at: now })
    .where('id', '=', attemptId)
    .where('status', 'in', ['pending', 'failed'])
    .execute();
}

/** Owes a charge back from outside a transaction (the checkout found its attempt given up), then refunds it. */
export async function oweAndRefund(deps: Deps, attemptId: string, ref: string): Promise<void> {
  await owe(deps.db, attemptId, ref, deps.now());
  await refundOwed(deps, attemptId);
}

/**
 * Gives back what an attempt in refund_pending took. The gateway call happens outside any transaction and is
 * idempotent (one refund per attempt key), so a crash before the row says 'refunded' only repeats it harmlessly.
 */
export async function refundOwed(deps: Deps, attemptId: string): Promise<void> {
  const attempt = await deps.db.selectFrom('payment').selectAll().where('id', '=', attemptId).executeTakeFirstOrThrow();
  if (attempt.status !== 'refund_pending' || !attempt.gateway_ref) return;
  await gatewayFor(deps.config, attempt.gateway_id).refund({
    db: deps.db,
    ref: attempt.gateway_ref,
    amount: attempt.amount,
    idempotencyKey: `${attempt.idempotency_key}:refund`,
  });
  await deps.db
    .updateTable('payment')
    .set({ status: 'refunded', audit_action: 'refund', updated_at: deps.now() })
    .where('id', '=', attemptId)
    .where('status', '=', 'refund_pending')
    .execute();
}

/**
 * A refused or never-made charge: the attempt records the provider's answer (or waits for the shopper's
 * confirmation) and the cart goes back to pending, so the shopper can correct and pay again.
 */
export async function releaseAttempt(deps: Deps, attempt: Payment, outcome: { status: 'failed' | 'requires_action'; ref: string }) {
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.now();
    const settled = await trx
      .updateTable('payment')
      .set({ status: outcome.status, gateway_ref: outcome.ref, updated_at: now })
      .where('id', '=', attempt.id)
      .where('status', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    if (!settled) return;
    await trx
      .updateTable('cart')
      .set({ state: 'pending', updated_at: now })
      .where('id', '=', attempt.cart_id)
      .where('state', '=', 'checking_out')
      .execute();
  });
}

/** The shopper's answer when a charge was taken but could not be booked. */
export const refundedError = (cartId: string) =>
  new DomainError('payment_refunded', 'Your payment could not be completed and has been refunded.', 'checkout', { cart_id: cartId });
