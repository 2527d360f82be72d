import type { Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { needsOf, releaseCapacity } from '../inventory';
import { releaseUses } from './promo';
import { returnGiftCardPayments } from '../checkout/gift-card';

type Trx = Transaction<Database>;

/**
 * Releases the holds of pending carts whose time is up: each cart is locked (`for update skip locked`,
 * so two sweepers or a sweeper and a buyer never release the same cart), moved to 'expired', its live
 * tickets to 'cancelled', and exactly those tickets give their capacity back. Used by the sweeper job
 * and by the reserve path for the sessions it is about to take from, so a full session frees up at
 * expiry without waiting for the sweeper.
 */
export async function expireCarts(
  trx: Trx,
  now: Date,
  opts: { cartIds?: string[]; sessionIds?: string[]; groupIds?: string[]; limit?: number } = {},
): Promise<string[]> {
  if (opts.cartIds && opts.cartIds.length === 0) return [];
  // Touching: holds on these sessions, or on these (sessionless) groups.
  const sessionIds = opts.sessionIds ?? [];
  const groupIds = opts.groupIds ?? [];
  const touching = opts.sessionIds !== undefined || opts.groupIds !== undefined;
  if (touching && sessionIds.length === 0 && groupIds.length === 0) return [];
  const locked = await trx
    .selectFrom('cart')
    .select('id')
    .where('state', '=', 'pending')
    .where('expires_at', '<=', now)
    .$if(!!opts.cartIds, (q) => q.where('id', 'in', opts.cartIds!))
    .$if(touching, (q) =>
      q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('ticket')
            .select('ticket.id')
            .whereRef('ticket.cart_id', '=', 'cart.id')
            .where('ticket.state', '=', 'in_cart')
            .where((w) =>
              w.or([
                ...(sessionIds.length ? [w('ticket.event_session_id', 'in', sessionIds)] : []),
                ...(groupIds.length
                  ? [w.and([w('ticket.event_session_id', 'is', null), w('ticket.ticket_group_id', 'in', groupIds)])]
                  : []),
              ]),
            ),
        ),
      ),
    )
    .orderBy('id')
    .limit(opts.limit ?? 500)
    .forUpdate()
    .skipLocked()
    .execute();
  const ids = locked.map((r) => r.id);
  if (ids.length === 0) return [];
  await trx.updateTable('cart').set({ state: 'expired', updated_at: now }).where('id', 'in', ids).execute();
  const released = await trx
    .updateTable('ticket')
    .set({ state: 'cancelled' })
    .where('cart_id', 'in', ids)
    .where('state', '=', 'in_cart')
    .returning(['event_session_id', 'ticket_group_id'])
    .execute();
  await releaseCapacity(trx, needsOf(released));
  await releaseUses(trx, ids);
  await returnGiftCardPayments(trx, ids, now);
  return ids;
}

/**
 * A cart stuck in 'checking_out' with no payment attempt to settle (the reconciler settles the others and puts
 * their carts back itself) goes back to pending after this long, so its normal expiry can release it.
 */
export const STALE_CHECKOUT_MS = 10 * 60 * 1000;

export async function recoverStaleCheckouts(trx: Trx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - STALE_CHECKOUT_MS);
  const rows = await trx
    .updateTable('cart')
    .set({ state: 'pending', updated_at: now })
    .where('state', '=', 'checking_out')
    .where('updated_at', '<', cutoff)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('payment')
            .select('payment.id')
            .whereRef('payment.cart_id', '=', 'cart.id')
            // Attempts still to settle (a gift card's part payment already taken is no reason to stay stuck).
            .where((w) =>
              w.or([
                w('payment.status', 'in', ['pending', 'refund_pending']),
                w.and([w('payment.status', '=', 'succeeded'), w('payment.gateway_id', '<>', 'ledger')]),
              ]),
            ),
        ),
      ),
    )
    .returning('id')
    .execute();
  return rows.length;
}
