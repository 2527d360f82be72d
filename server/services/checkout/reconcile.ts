import type { Deps } from '../../deps';
import type { Payment } from '../../db/types';
import { gatewayFor } from '../payments';
import { sendOrderMail } from '../order-mail';
import { bookAttempt, refundOwed, releaseAttempt } from './book';
import { payOutStaleRefunds } from '../refunds';

export interface ReconcileReport {
  booked: number;
  released: number;
  refunded: number;
  /** Payments the provider is still clearing (a debit): its webhook, or a later round, settles them. */
  waiting: number;
  /** Attempts whose gateway could not be asked this time (left for the next round). */
  unreachable: number;
}

/**
 * Settles one attempt whose outcome was never recorded: asks the gateway what became of the charge made under its
 * idempotency key (outside any transaction), then books it, releases the cart, or owes the money back.
 */
export async function settleAttempt(deps: Deps, attempt: Payment): Promise<keyof ReconcileReport> {
  const gateway = gatewayFor(deps.config, attempt.gateway_id);
  let found;
  try {
    found = await gateway.lookup({ db: deps.db, idempotencyKey: attempt.idempotency_key, ref: attempt.gateway_ref });
  } catch {
    return 'unreachable';
  }
  if (found.status === 'processing') return 'waiting';
  if (found.status === 'none') {
    await releaseAttempt(deps, attempt, { status: 'failed', ref: 'abandoned' });
    return 'released';
  }
  if (found.status === 'requires_action') {
    await releaseAttempt(deps, attempt, { status: 'requires_action', ref: found.ref });
    return 'released';
  }
  // Nobody holds the order's access token: the shopper reaches it through the e-mail or their account.
  const outcome = await deps.db
    .transaction()
    .execute((trx) => bookAttempt(trx, deps, attempt.id, { ref: found.ref, accessTokenHash: null }));
  if (outcome.kind === 'booked') {
    if (attempt.send_email)
      await sendOrderMail(deps, outcome.orderId, outcome.edit ? 'order_update' : 'order_tickets').catch(() => undefined);
    return 'booked';
  }
  if (outcome.kind === 'refund_owed') {
    await refundOwed(deps, attempt.id);
    return 'refunded';
  }
  return 'booked';
}

/**
 * One round of the reconciler (issue 20, finding 7): every attempt left between charge and booking for longer than
 * RECONCILE_AFTER_MS (its process died, or lost its connection) is booked or released, and every refund owed is
 * made. Runs at start and periodically in every process; the attempt's row lock decides who settles it.
 */
export async function reconcilePayments(deps: Deps, opts: { olderThanMs?: number; limit?: number } = {}): Promise<ReconcileReport> {
  const cutoff = new Date(deps.now().getTime() - (opts.olderThanMs ?? deps.config.reconcileAfterMs));
  const report: ReconcileReport = { booked: 0, released: 0, refunded: 0, waiting: 0, unreachable: 0 };
  const attempts = await deps.db
    .selectFrom('payment')
    .selectAll()
    .where('status', 'in', ['pending', 'refund_pending'])
    .where('updated_at', '<', cutoff)
    .orderBy('updated_at')
    .limit(opts.limit ?? 100)
    .execute();
  // Refunds of cancelled tickets whose gateway call was cut short (refunds.ts): paid out again under their keys.
  report.refunded += await payOutStaleRefunds(deps, cutoff, opts.limit ?? 100);
  for (const attempt of attempts) {
    if (attempt.status === 'refund_pending') {
      try {
        await refundOwed(deps, attempt.id);
        report.refunded++;
      } catch {
        report.unreachable++;
      }
      continue;
    }
    report[await settleAttempt(deps, attempt)]++;
  }
  return report;
}
