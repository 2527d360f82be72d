import type { Deps } from '../deps';
import { reconcilePayments } from '../services/checkout';
import { repeat } from './repeat';

/**
 * Runs the payment reconciler at start and then every `intervalMs` (issue 20, finding 7): attempts left between
 * charge and booking by a process that died are booked or refunded, refunds owed are made.
 */
export function startPaymentReconciler(deps: Deps, intervalMs = 30_000): () => void {
  return repeat('payment reconciler', intervalMs, () => reconcilePayments(deps), { atStart: true });
}
