import { randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Deps } from '../../deps';
import type { Database, Payment, Seller } from '../../db/types';
import { DomainError } from '../errors';
import type { Caller } from '../cart/access';
import { cartErrors } from '../cart/errors';
import { surveyComplete } from '../cart/survey';
import { retakeUses } from '../cart/promo';
import { blockingRules } from '../cart/blocking';
import { cartTotals } from '../cart/totals';

export { cartTotals };
import { planOf } from './schedule';
import { amountDueNow } from '../../../src/domain/payment-schedule';
import { needsOf, takeCapacity } from '../inventory';
import { secretOf, verifyIdentityProof } from '../manage-link';
import type { Gateway } from '../payments';

type Trx = Transaction<Database>;

const invalid = (field: string, description: string) => new DomainError('validation_failed', description, 'checkout', { field });

/**
 * Who the order is for: the guest identity this browser created for a public-identity cart (or an account's identity
 * whose password it proved: `proof`, issue 13), else the cart's identity.
 */
export async function orderIdentity(
  deps: Deps,
  seller: Seller,
  cart: { identity_id: string },
  caller: Caller,
  guestId?: string,
  proof?: string,
) {
  if (cart.identity_id !== seller.public_identity_id) return cart.identity_id;
  // A logged-in user paying for the cart they filled as a guest buys as themselves.
  if (!guestId && caller.identityId) return caller.identityId;
  if (!guestId) throw invalid('guest_identity_id', 'Purchaser details are required.');
  const identity = await deps.db
    .selectFrom('identity')
    .select(['id', 'meta', 'is_public'])
    .where('id', '=', guestId)
    .where('seller_id', '=', seller.id)
    .executeTakeFirst();
  if (!identity || identity.is_public) throw invalid('guest_identity_id', 'Purchaser details are required.');
  const mine = caller.tokenHash !== null && identity.meta?.owner_token_hash === caller.tokenHash;
  const proved =
    caller.tokenHash !== null &&
    proof !== undefined &&
    verifyIdentityProof(await secretOf(deps.db, seller.id), identity.id, caller.tokenHash, proof, deps.now());
  if (!mine && !proved) {
    throw new DomainError('identity_access_denied', 'These purchaser details belong to another visitor.', 'checkout');
  }
  return identity.id;
}

export interface ClaimArgs {
  cartId: string;
  sellerId: string;
  amount: number;
  gateway: Gateway;
  identityId: string;
  sendEmail: boolean;
  /** The intent a confirmed retry continues (gateway_data.source), if any. */
  source: string | null;
  /**
   * The provider's webhook says this attempt's payment succeeded after the cart went back to the shopper (3-D Secure
   * confirmed but the tab closed, a late success): continue exactly this attempt, from requires_action or failed.
   */
  resumeAttemptId?: string;
  /** Memberships in the cart renew automatically (checkout `auto_renew`). */
  autoRenew?: boolean;
  /** A gift of membership: who receives it (gift checkout). */
  gifteeIdentityId?: string | null;
}

/**
 * Moves the cart pending -> checking_out under its row lock, so one checkout at a time can reach the gateway, and
 * writes the payment attempt in the same transaction (issue 20, finding 7): whatever happens to this process
 * after the gateway is called, the attempt is there for the reconciler. A cart whose hold was released (expired)
 * takes its capacity again here with the guarded update, so a late payment never books beyond capacity; a pending
 * cart past its time still holds its capacity (nobody released it, the lock keeps the sweeper away) and may proceed.
 */
export async function claim(trx: Trx, deps: Deps, args: ClaimArgs): Promise<Payment> {
  const { cartId, amount, gateway } = args;
  const now = deps.now();
  const cart = await trx.selectFrom('cart').selectAll().where('id', '=', cartId).forUpdate().executeTakeFirstOrThrow();
  if (cart.state === 'completed') {
    throw cartErrors.booked(
      cartId,
      await trx.selectFrom('ticket_order').select(['id', 'order_number']).where('cart_id', '=', cartId).executeTakeFirst(),
    );
  }
  if (cart.state === 'checking_out') throw cartErrors.checkingOut(cartId);
  if (cart.state === 'cancelled') throw cartErrors.notPending(cartId, cart.state);
  // An edit whose hold ran out is not taken up again (the order's open edit may be another by now): start again.
  if (cart.state === 'expired' && cart.edit_order_id) throw cartErrors.expired(cartId);
  if (cart.state === 'expired') {
    const released = await trx
      .updateTable('ticket')
      .set({ state: 'in_cart' })
      .where('cart_id', '=', cartId)
      .where('state', '=', 'cancelled')
      .returning(['event_session_id', 'ticket_group_id', 'valid_from'])
      .execute();
    if (released.length === 0 || released.some((t) => t.event_session_id && t.valid_from && new Date(t.valid_from) <= now)) {
      throw cartErrors.expired(cartId);
    }
    await takeCapacity(trx, needsOf(released));
    await retakeUses(trx, cartId);
  }
  const { tickets, totals } = await cartTotals(trx, cartId);
  if (tickets.length === 0) throw new DomainError('cart_empty', 'Please select at least one ticket to continue.', 'checkout');
  const [blocked] = await blockingRules(trx, args.sellerId, cartId, tickets);
  if (blocked) {
    throw new DomainError('rule_blocks_checkout', 'A code is needed to check out this cart.', 'checkout', {
      block_reason: blocked.block_reason,
      cart_mod_id: blocked.cart_mod_id,
    });
  }
  const groups = await trx
    .selectFrom('ticket_group')
    .select(['id', 'additional_info_spec'])
    .where('id', 'in', [...new Set(tickets.map((t) => t.ticket_group_id))])
    .execute();
  for (const g of groups) {
    if (!surveyComplete(g.additional_info_spec, cart.additional_info?.[g.id])) {
      throw new DomainError('additional_info_validation_failed', 'Please answer the required questions.', 'checkout', {
        ticket_group_id: g.id,
      });
    }
  }
  // A gift card may pay part of what is owed, and so may a card on a cart with a payment plan, at least what is due now
  // (the rest stays outstanding); every other payment pays all of it. A part payment leaves the cart with the shopper,
  // so it needs the cart's hold to be current.
  const plan = await planOf(trx, cartId);
  const dueNow = plan.parts.length ? amountDueNow(plan.parts, plan.paid, now, totals.total_outstanding) : null;
  const partial = amount > 0 && amount < totals.total_outstanding && (gateway.id === 'ledger' || (dueNow !== null && amount >= dueNow));
  if (partial && (cart.state === 'expired' || (cart.expires_at && new Date(cart.expires_at) <= now))) throw cartErrors.expired(cartId);
  if (!partial && amount !== totals.total_outstanding) {
    throw new DomainError('payment_amount_incorrect', 'The amount does not match the amount due.', 'checkout', {
      field: 'amount',
      outstanding: totals.total_outstanding,
      ...(dueNow !== null ? { due: dueNow } : {}),
    });
  }
  const { currency } = await trx.selectFrom('seller').select('currency').where('id', '=', args.sellerId).executeTakeFirstOrThrow();
  if (!gateway.accepts(amount, currency)) {
    throw new DomainError('payment_not_supported', 'Payment is not supported for this amount.', 'checkout', { gateway_id: gateway.id });
  }
  await trx
    .updateTable('cart')
    .set({ state: 'checking_out', updated_at: now, auto_renew: args.autoRenew === true, giftee_identity_id: args.gifteeIdentityId ?? null })
    .where('id', '=', cartId)
    .execute();

  const attemptFields = { order_identity_id: args.identityId, send_email: args.sendEmail, updated_at: now };
  if (args.resumeAttemptId) {
    const resumed = await trx
      .updateTable('payment')
      .set({ status: 'pending', ...attemptFields })
      .where('id', '=', args.resumeAttemptId)
      .where('cart_id', '=', cartId)
      .where('status', 'in', ['requires_action', 'failed'])
      .where('amount', '=', amount)
      .returningAll()
      .executeTakeFirst();
    if (!resumed) throw new Error(`attempt ${args.resumeAttemptId} cannot be resumed`);
    return resumed;
  }
  if (args.source) {
    // A confirmed retry continues the attempt that asked for the confirmation, under the same idempotency key.
    const resumed = await trx
      .updateTable('payment')
      .set({ status: 'pending', ...attemptFields })
      .where('cart_id', '=', cartId)
      .where('gateway_id', '=', gateway.id)
      .where('gateway_ref', '=', args.source)
      .where('status', '=', 'requires_action')
      .where('amount', '=', amount)
      .returningAll()
      .executeTakeFirst();
    if (resumed) return resumed;
  }
  return trx
    .insertInto('payment')
    .values({
      seller_id: args.sellerId,
      cart_id: cartId,
      gateway_id: gateway.id,
      amount,
      status: 'pending',
      audit_action: 'capture',
      idempotency_key: `cart:${cartId}:attempt:${randomBytes(8).toString('hex')}`,
      occurred_on: now,
      ...attemptFields,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
