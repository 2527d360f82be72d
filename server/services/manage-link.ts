import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db';
import { managePath } from '../../src/contract/manage-link';

/**
 * Signed manage links (issue 17). A guest proves an order is theirs by the link in its e-mail: an HMAC-SHA256 of the
 * order id under the seller's own secret (migration 012). The order id alone, which shows in addresses and receipts,
 * is never enough; a forged or altered signature is refused like no signature.
 */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** What a signature vouches for: an order's manage link, or one ticket's wallet pass links (issue 17). A pass link
 *  proves that ticket only: it cannot manage the order. `identity`: a browser proved an account's password (issue 13). */
type Purpose = 'manage' | 'pass' | 'identity';

const mac = (secret: string, id: string, purpose: Purpose = 'manage') => createHmac('sha256', secret).update(`${purpose}:${id}`).digest();

export const signOrder = (secret: string, orderId: string) => mac(secret, orderId).toString('base64url');
export const signTicketPass = (secret: string, ticketId: string) => mac(secret, ticketId, 'pass').toString('base64url');

/** Whether `signature` is the seller's signature of the order. */
export function verifyOrderSignature(secret: string, orderId: string, signature: unknown, purpose: Purpose = 'manage'): boolean {
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return false;
  return timingSafeEqual(mac(secret, orderId, purpose), Buffer.from(signature, 'base64url'));
}

/** How long an account's identity may be bought as after its password was proved at checkout (issue 13). */
export const IDENTITY_PROOF_SECONDS = 60 * 60;
const PROOF = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * The proof that this browser (its owner token) gave the right password of the account whose identity it may now buy
 * as, until `expiresAt` (spec section 7: a 409 names the identity, which the checkout reuses). Signed, not stored: the
 * refusal that hands it out writes nothing, and each browser's proof is its own.
 */
export function signIdentityProof(secret: string, identityId: string, tokenHash: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  return `${exp}.${mac(secret, `${identityId}:${tokenHash}:${exp}`, 'identity').toString('base64url')}`;
}

export function verifyIdentityProof(secret: string, identityId: string, tokenHash: string, proof: unknown, now: Date): boolean {
  const m = typeof proof === 'string' ? PROOF.exec(proof) : null;
  if (!m || Number(m[1]) * 1000 <= now.getTime()) return false;
  return timingSafeEqual(mac(secret, `${identityId}:${tokenHash}:${m[1]}`, 'identity'), Buffer.from(m[2], 'base64url'));
}

export async function secretOf(db: Db, sellerId: string): Promise<string> {
  const row = await db.selectFrom('seller').select('manage_link_secret').where('id', '=', sellerId).executeTakeFirstOrThrow();
  return row.manage_link_secret;
}

/** The absolute manage link of an order, for its e-mail: the seller's slug path unless it is the default seller. */
export async function manageUrl(
  db: Db,
  args: { publicUrl: string; sellerId: string; sellerSlug: string; defaultSeller: string; orderId: string },
): Promise<string> {
  const prefix = args.sellerSlug === args.defaultSeller ? '' : `/${encodeURIComponent(args.sellerSlug)}`;
  return `${args.publicUrl}${prefix}${managePath(args.orderId, signOrder(await secretOf(db, args.sellerId), args.orderId))}`;
}

/** Whether the request's signature proves the order (the seller's secret read fresh: a rotation voids old links). */
export async function holdsManageLink(db: Db, order: { id: string; seller_id: string }, signature: unknown): Promise<boolean> {
  if (signature === undefined) return false;
  return verifyOrderSignature(await secretOf(db, order.seller_id), order.id, signature);
}
