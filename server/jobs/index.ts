import type { Deps } from '../deps';
import { startAuthCleanup } from './auth-cleanup';
import { startCartSweeper } from './cart-sweeper';
import { startPaymentReconciler } from './payment-reconciler';
import { startAutoRenew } from './auto-renew';
import { startJobRunner } from './runner';
import { startPgliteMaintenance } from './pglite-maintenance';

export interface Jobs {
  stop(): void;
}

/** Background timers. Each job is idempotent and claims its rows with `skip locked`, so any number of
 *  server processes may run them side by side. */
export function startJobs(deps: Deps): Jobs {
  const stops = [
    startCartSweeper(deps, 15_000),
    startAuthCleanup(deps),
    startPaymentReconciler(deps),
    startAutoRenew(deps),
    startJobRunner(deps),
    startPgliteMaintenance(deps),
  ];
  return { stop: () => stops.forEach((stop) => stop()) };
}
