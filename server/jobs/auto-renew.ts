import type { Deps } from '../deps';
import { renewDueMemberships } from '../services/membership/auto-renew';
import { repeat } from './repeat';

/** Renews scheduled memberships shortly before they end (issue 12), hourly and once at start. */
export function startAutoRenew(deps: Deps, intervalMs = 60 * 60_000): () => void {
  return repeat('membership auto-renew', intervalMs, () => renewDueMemberships(deps), { atStart: true });
}
