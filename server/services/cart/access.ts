import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db';
import type { Seller } from '../../db/types';
import { DomainError, notFound } from '../errors';

/**
 * Who may touch a cart. A guest's carts belong to the seller's shared public identity, so the identity
 * alone proves nothing: the browser holds a random 128-bit owner token in an httpOnly cookie and the cart
 * stores its sha256. A logged-in user (a later issue) owns carts by identity.
 */
export const OWNER_COOKIE = 'storefront_cart_owner';
const TOKEN = /^[0-9a-f]{32}$/;

export interface Caller {
  /** sha256 of the owner-token cookie, or null when the browser has none. */
  tokenHash: string | null;
  /** The logged-in user's identity (none until login exists). */
  identityId: string | null;
  /** sha256 of the client's network address as TRUST_PROXY allows it to be known (hold and cart-creation limits). */
  addressHash?: string | null;
  /** The owner token was minted by this very request: no other request can hold a cart by it yet (fast-reserve.ts). */
  freshToken?: boolean;
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const newOwnerToken = () => randomBytes(16).toString('hex');
export const isOwnerToken = (value: unknown): value is string => typeof value === 'string' && TOKEN.test(value);

export function callerFromToken(token: unknown, identityId: string | null = null, address?: string): Caller {
  return { tokenHash: isOwnerToken(token) ? sha256(token) : null, identityId, addressHash: address ? sha256(`address:${address}`) : null };
}

/** The seller's public (guest) identity, created on first use; concurrent first uses agree on one row. */
export async function publicIdentityId(db: Db, seller: Seller): Promise<string> {
  if (seller.public_identity_id) return seller.public_identity_id;
  await db
    .insertInto('identity')
    .values({ seller_id: seller.id, is_public: true, first_name: 'Guest', additional_info: '{}', meta: '{}' })
    .onConflict((oc) =>
      oc
        .column('seller_id')
        .where(sql<boolean>`is_public`)
        .doNothing(),
    )
    .execute();
  const row = await db
    .selectFrom('identity')
    .select('id')
    .where('seller_id', '=', seller.id)
    .where('is_public', '=', true)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('seller')
    .set({ public_identity_id: row.id })
    .where('id', '=', seller.id)
    .where('public_identity_id', 'is', null)
    .execute();
  seller.public_identity_id = row.id;
  return row.id;
}

interface Owned {
  identity_id: string;
  owner_token_hash: string | null;
}

/** A guest cart is owned by its token; a user's cart by the user's identity. */
export function isCartOwner(cart: Owned, caller: Caller): boolean {
  if (cart.owner_token_hash) return caller.tokenHash !== null && caller.tokenHash === cart.owner_token_hash;
  return caller.identityId !== null && caller.identityId === cart.identity_id;
}

export const cartAccessDenied = (cartId: string) =>
  new DomainError('cart_access_denied', 'Access denied to cart.', undefined, { cart_id: cartId });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string) => UUID.test(v);

/** The cart if the caller owns it: 404 when it does not exist, 403 when it belongs to someone else. */
export async function loadOwnedCart(db: Db, cartId: string, caller: Caller) {
  if (!isUuid(cartId)) throw notFound('cart', cartId);
  const cart = await db.selectFrom('cart').selectAll().where('id', '=', cartId).executeTakeFirst();
  if (!cart) throw notFound('cart', cartId);
  if (!isCartOwner(cart, caller)) throw cartAccessDenied(cartId);
  return cart;
}

/** The seller a cart belongs to (requests about a cart need not name the seller). */
export async function sellerOfCart(db: Db, cartId: string): Promise<Seller | undefined> {
  if (!isUuid(cartId)) return undefined;
  return db
    .selectFrom('seller')
    .innerJoin('cart', 'cart.seller_id', 'seller.id')
    .selectAll('seller')
    .where('cart.id', '=', cartId)
    .executeTakeFirst();
}
