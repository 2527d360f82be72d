import type { Deps } from '../deps';
import { expireCarts, recoverStaleCheckouts } from '../services/cart/expiry';
import { repeat } from './repeat';

const BATCH = 500;

/**
 * One sweep: carts stuck in checkout go back to pending, then expired pending carts release their holds
 * in batches. Safe to run in many processes at once: rows are claimed with `for update skip locked` and
 * each cart is released once. Returns how many carts expired.
 */
export async function sweepExpiredCarts(deps: Deps): Promise<number> {
  const now = deps.now();
  await deps.db.transaction().execute((trx) => recoverStaleCheckouts(trx, now));
  let total = 0;
  for (;;) {
    const ids = await deps.db.transaction().execute((trx) => expireCarts(trx, now, { limit: BATCH }));
    total += ids.length;
    if (ids.length < BATCH) return total;
  }
}

/** Runs the sweeper every `intervalMs`; returns the function that stops it. Sweeps never overlap. */
export function startCartSweeper(deps: Deps, intervalMs = 15_000): () => void {
  return repeat('cart sweeper', intervalMs, () => sweepExpiredCarts(deps));
}
