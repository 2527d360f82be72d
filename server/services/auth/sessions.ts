import type { Selectable } from 'kysely';
import type { Deps } from '../../deps';
import type { AppUserTable, IdentityTable } from '../../db/types';
import { newSecret, sha256, isSecret } from './tokens';

export const SESSION_COOKIE = 'storefront_session';
export const SESSION_DAYS = 14;

export type User = Selectable<AppUserTable>;
export type Identity = Selectable<IdentityTable>;
export interface Auth {
  user: User;
  identity: Identity;
}

/** A new session (new random token at every login); the browser gets the token, the table its sha256. */
export async function createSession(
  deps: Deps,
  user: Pick<User, 'id' | 'seller_id'>,
  opts: { ssoIdToken?: string } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecret();
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
  await deps.db
    .insertInto('auth_session')
    .values({
      token_hash: sha256(token),
      seller_id: user.seller_id,
      user_id: user.id,
      created_at: now,
      expires_at: expiresAt,
      sso_id_token: opts.ssoIdToken ?? null,
    })
    .execute();
  return { token, expiresAt };
}

/** The user and identity of a live session token, for the given seller (a session never crosses sellers). */
export async function sessionAuth(deps: Deps, token: unknown, sellerId?: string): Promise<Auth | null> {
  if (!isSecret(token)) return null;
  let q = deps.db
    .selectFrom('auth_session')
    .innerJoin('app_user', 'app_user.id', 'auth_session.user_id')
    .select([
      'app_user.id',
      'app_user.seller_id',
      'app_user.identity_id',
      'app_user.email',
      'app_user.password_hash',
      'app_user.created_at',
      'app_user.preview_role',
    ])
    .where('auth_session.token_hash', '=', sha256(token))
    .where('auth_session.expires_at', '>', deps.now());
  if (sellerId) q = q.where('auth_session.seller_id', '=', sellerId);
  const user = await q.executeTakeFirst();
  if (!user) return null;
  const identity = await deps.db.selectFrom('identity').selectAll().where('id', '=', user.identity_id).executeTakeFirst();
  return identity ? { user, identity } : null;
}

/** Ends a session; answers what an SSO logout needs of it (its seller and the provider's ID token), if it was live. */
export async function endSession(deps: Deps, token: unknown): Promise<{ seller_id: string; sso_id_token: string | null } | null> {
  if (!isSecret(token)) return null;
  const ended = await deps.db
    .deleteFrom('auth_session')
    .where('token_hash', '=', sha256(token))
    .returning(['seller_id', 'sso_id_token'])
    .executeTakeFirst();
  return ended ?? null;
}

/** After a password change every other session of the user ends (a thief's session with it). */
export async function endUserSessions(deps: Deps, userId: string): Promise<void> {
  await deps.db.deleteFrom('auth_session').where('user_id', '=', userId).execute();
}
