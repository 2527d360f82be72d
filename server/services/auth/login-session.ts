import type { Deps } from '../../deps';
import type { UserAnswer } from '../../../src/contract/account';
import { userAnswer } from './account';
import { createSession, endSession, sessionAuth } from './sessions';
import type { Caller } from '../cart/access';

/**
 * A login: the browser's previous session ends, a new token is made (a new one at every login), and the guest cart
 * this browser was filling becomes the user's. The route puts the token in the session cookie.
 */
export async function startUserSession(
  deps: Deps,
  o: {
    userId: string;
    sellerId: string;
    previousToken: unknown;
    cartId?: string;
    caller: Caller;
    /** a login at the identity provider: its ID token, kept for the provider's logout */
    ssoIdToken?: string;
  },
): Promise<{ token: string; answer: UserAnswer }> {
  await endSession(deps, o.previousToken);
  const user = await deps.db.selectFrom('app_user').select(['id', 'seller_id']).where('id', '=', o.userId).executeTakeFirstOrThrow();
  const { token } = await createSession(deps, user, { ssoIdToken: o.ssoIdToken });
  const auth = (await sessionAuth(deps, token, o.sellerId))!;
  if (o.cartId) await adoptGuestCart(deps, o.caller, o.cartId, o.sellerId, auth.identity.id);
  return { token, answer: userAnswer(auth, true) };
}

/**
 * Spec section 3 login payload `cart_id`: the guest cart this browser was filling becomes the user's (one
 * conditional update: still pending, this seller's public identity, and this browser's owner token), so the
 * logged-in checkout needs no guest details. Any other cart is left alone.
 */
async function adoptGuestCart(deps: Deps, caller: Caller, cartId: string, sellerId: string, identityId: string) {
  if (!caller.tokenHash || !/^[0-9a-f-]{36}$/i.test(cartId)) return;
  const seller = await deps.db.selectFrom('seller').select('public_identity_id').where('id', '=', sellerId).executeTakeFirst();
  if (!seller?.public_identity_id) return;
  await deps.db
    .updateTable('cart')
    .set({ identity_id: identityId, owner_token_hash: null })
    .where('id', '=', cartId)
    .where('seller_id', '=', sellerId)
    .where('state', '=', 'pending')
    .where('identity_id', '=', seller.public_identity_id)
    .where('owner_token_hash', '=', caller.tokenHash)
    .execute();
}
