import type { Deps } from '../deps';

export interface Jobs { stop(): void }

/** Background timers (the cart-expiry sweeper arrives with carts). Each job is idempotent, so any number
 *  of server processes may run them side by side. */
export function startJobs(deps: Deps): Jobs {
  void deps;
  const timers: NodeJS.Timeout[] = [];
  return { stop: () => timers.forEach(clearInterval) };
}
