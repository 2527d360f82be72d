import { randomBytes } from 'node:crypto';
import type { Deps } from '../../deps';
import { CART_TRANSFER_MINUTES, type CartTransferRow } from '../../../src/contract/cart-transfer';
import { cartAccessDenied, isCartOwner, isUuid, loadOwnedCart, sha256, type Caller } from './access';
import { cartErrors } from './errors';
import { notFound } from '../errors';

/**
 * Cart transfer (issue 17; spec section 2): the owner of a pending cart makes a link that carries it to another browser.
 * The link's token is 256 random bits that only the link holds (the row keeps its sha256): a cart id alone, which shows
 * in addresses and on the pending screen, hands nothing over. Whoever claims with the token takes the guest cart over
 * (its owner cookie becomes theirs, so the first browser gives it up); the token works once, one conditional update
 * taking it, and for CART_TRANSFER_MINUTES.
 */

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

let unsafeSkipClaimGuardForTests = false;
/**
 * TEST ONLY. Takes a transfer token without its `used_at is null` predicate, so the concurrency test has a control that
 * observes one link handing a cart over more than once (DESIGN.md section 4). Not reachable from HTTP or config.
 */
export function setUnsafeSkipClaimGuardForTests(on: boolean): void {
  unsafeSkipClaimGuardForTests = on;
}

/** POST cart/{id}/transfer: a new link for the caller's pending cart (the cart's last unused link stops working). */
export async function createTransfer(deps: Deps, cartId: string, caller: Caller): Promise<CartTransferRow> {
  const cart = await loadOwnedCart(deps.db, cartId, caller);
  // An order's edit cart is the order's (its checkout answers the whole order): never handed over.
  if (cart.state !== 'pending' || cart.edit_order_id) throw cartErrors.notPending(cartId, cart.state);
  const token = randomBytes(32).toString('base64url');
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + CART_TRANSFER_MINUTES * 60_000);
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('cart_transfer').where('cart_id', '=', cartId).where('used_at', 'is', null).execute();
    await trx
      .insertInto('cart_transfer')
      .values({ token_hash: sha256(token), cart_id: cartId, created_at: now, expires_at: expiresAt })
      .execute();
  });
  return { cart_id: cartId, token, expires_at: expiresAt.toISOString() };
}

/**
 * POST cart/{id}/claim. The cart's owner is answered as it is (a reload of the transfer page). A member's cart is never
 * handed to someone else: a live token lets its holder see it (the storefront then says it belongs to another member)
 * and is not used up. A guest cart moves to the caller's owner cookie in the transaction that takes the token.
 * 404 for a cart that does not exist, 403 cart_access_denied for a missing, wrong, used or expired token.
 */
export async function claimCart(deps: Deps, cartId: string, caller: Caller, token: string): Promise<{ viewAs: Caller }> {
  if (!isUuid(cartId)) throw notFound('cart', cartId);
  const cart = await deps.db
    .selectFrom('cart')
    .select(['id', 'identity_id', 'owner_token_hash', 'state', 'edit_order_id'])
    .where('id', '=', cartId)
    .executeTakeFirst();
  if (!cart) throw notFound('cart', cartId);
  if (isCartOwner(cart, caller)) return { viewAs: caller };
  // Only a cart still being filled goes over: a paid, paying or cancelled cart's view holds its tickets' scan codes
  // and its ownership decides who manages the order, so a link made before the payment hands nothing over after it.
  if (!TOKEN.test(token) || !caller.tokenHash || cart.state !== 'pending' || cart.edit_order_id) throw cartAccessDenied(cartId);
  const now = deps.now();
  if (!cart.owner_token_hash) {
    // A member's cart: shown to the link's holder, who is told it is another member's; it stays the member's.
    const link = await deps.db
      .selectFrom('cart_transfer')
      .select('token_hash')
      .where('cart_id', '=', cartId)
      .where('token_hash', '=', sha256(token))
      .where('expires_at', '>', now)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (!link) throw cartAccessDenied(cartId);
    return { viewAs: { tokenHash: null, identityId: cart.identity_id } };
  }
  const taken = await deps.db.transaction().execute(async (trx) => {
    const took = await trx
      .updateTable('cart_transfer')
      .set({ used_at: now })
      .where('cart_id', '=', cartId)
      .where('token_hash', '=', sha256(token))
      .where('expires_at', '>', now)
      .$if(!unsafeSkipClaimGuardForTests, (q) => q.where('used_at', 'is', null))
      .returning('token_hash')
      .executeTakeFirst();
    if (!took) return false;
    // Still pending as it moves (a checkout may have claimed it since it was read): otherwise the token stays unused.
    const moved = await trx
      .updateTable('cart')
      .set({ owner_token_hash: caller.tokenHash, updated_at: now })
      .where('id', '=', cartId)
      .where('owner_token_hash', 'is not', null)
      .where('state', '=', 'pending')
      .where('edit_order_id', 'is', null)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw cartAccessDenied(cartId);
    return true;
  });
  if (!taken) throw cartAccessDenied(cartId);
  return { viewAs: caller };
}
