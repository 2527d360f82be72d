import type { Deps } from '../deps';
import { purgeRateLimits } from '../services/auth/rate-limit';
import { repeat } from './repeat';

/** Removes ended sessions, login tokens a day past their expiry, single sign-on logins never come back, cart transfer
 *  links past their time, and old rate-limit windows. */
export async function cleanUpAuth(deps: Deps): Promise<{ sessions: number; tokens: number; windows: number }> {
  const now = deps.now();
  const sessions = await deps.db.deleteFrom('auth_session').where('expires_at', '<=', now).executeTakeFirst();
  const tokens = await deps.db
    .deleteFrom('login_token')
    .where('expires_at', '<', new Date(now.getTime() - 86_400_000))
    .executeTakeFirst();
  await deps.db.deleteFrom('sso_attempt').where('expires_at', '<=', now).execute();
  await deps.db.deleteFrom('cart_transfer').where('expires_at', '<=', now).execute();
  const windows = await purgeRateLimits(deps);
  return { sessions: Number(sessions.numDeletedRows ?? 0), tokens: Number(tokens.numDeletedRows ?? 0), windows };
}

/** Runs the cleanup every `intervalMs` (default hourly); returns the function that stops it. */
export function startAuthCleanup(deps: Deps, intervalMs = 3_600_000): () => void {
  return repeat('auth cleanup', intervalMs, () => cleanUpAuth(deps));
}
