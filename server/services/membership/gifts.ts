import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';
import type { Caller } from '../cart/access';
import { loadOwnedCart } from '../cart/access';
import { DomainError } from '../errors';
import { hit } from '../auth/rate-limit';
import { validateGuestIdentity, type GuestIdentityBody } from '../checkout/guest-identity';
import { checkoutCart, type CheckoutBody, type CheckoutResult } from '../checkout';
import { giftCodeState } from '../../../src/domain/membership';
import type { GiftCodeRow } from '../../../src/contract/membership';
import { createMembership } from './book';
import { currentMembership } from './reserve';
import { membershipRow } from './rows';

const giftToSelf = () => new DomainError('gift_to_self', 'You cannot gift a membership to yourself.', 'gift', { field: 'email' });
const notFoundCode = (code: string) =>
  new DomainError('not_found', 'You must enter a valid code', 'gift_code', { code: code.slice(0, 40) });

/** POST giftee: who receives a gift of membership, bound to this browser (only it can name them in a gift checkout). */
export async function createGiftee(deps: Deps, seller: Seller, caller: Caller, body: GuestIdentityBody) {
  const fields = validateGuestIdentity(body);
  if (caller.identityId) {
    const me = await deps.db.selectFrom('identity').select('email').where('id', '=', caller.identityId).executeTakeFirst();
    if (me?.email && me.email.toLowerCase() === fields.email.toLowerCase()) throw giftToSelf();
  }
  if (caller.addressHash) await hit(deps, 'guest_identity_ip', caller.addressHash);
  const row = await deps.db
    .insertInto('identity')
    .values({
      seller_id: seller.id,
      is_public: false,
      first_name: fields.first_name,
      last_name: fields.last_name,
      email: fields.email,
      additional_info: JSON.stringify(fields.additional_info),
      meta: JSON.stringify({ giftee: true, owner_token_hash: caller.tokenHash }),
    })
    .returning(['id', 'first_name', 'last_name', 'email'])
    .executeTakeFirstOrThrow();
  return { identity_id: row.id, first_name: row.first_name ?? '', last_name: row.last_name ?? '', email: row.email ?? '' };
}

/**
 * POST cart/{id}/gift_checkout and my/cart/{id}/gift_checkout: the cart holds giftable membership levels only, the
 * giftee was recorded by this browser and is not the giver; then the ordinary checkout, with the giftee on the cart,
 * books a gift code instead of a membership (membership/book.ts) and mails it to the giftee.
 */
export async function giftCheckout(
  deps: Deps,
  cartId: string,
  caller: Caller,
  body: CheckoutBody & { giftee_identity_id: string },
): Promise<CheckoutResult> {
  const cart = await loadOwnedCart(deps.db, cartId, caller);
  const giftee = await deps.db
    .selectFrom('identity')
    .select(['id', 'email', 'meta'])
    .where('id', '=', body.giftee_identity_id)
    .where('seller_id', '=', cart.seller_id)
    .executeTakeFirst();
  if (!giftee || giftee.meta?.giftee !== true || giftee.meta?.owner_token_hash !== caller.tokenHash) {
    throw new DomainError('validation_failed', 'Please enter who receives the gift.', 'gift', { field: 'giftee_identity_id' });
  }
  const giverId = caller.identityId ?? body.guest_identity_id ?? null;
  if (giverId) {
    const giver = await deps.db.selectFrom('identity').select('email').where('id', '=', giverId).executeTakeFirst();
    if (giver?.email && giftee.email && giver.email.toLowerCase() === giftee.email.toLowerCase()) throw giftToSelf();
  }
  const lines = await deps.db
    .selectFrom('ticket')
    .leftJoin('role', 'role.ticket_type_id', 'ticket.ticket_type_id')
    .select(['ticket.handler', 'role.giftable'])
    .where('ticket.cart_id', '=', cartId)
    .where('ticket.state', '=', 'in_cart')
    .execute();
  if (lines.length === 0 || lines.some((l) => l.handler !== 'membership' || !l.giftable)) {
    throw new DomainError('validation_failed', 'Only a giftable membership can be given as a gift.', 'gift', { field: 'cart' });
  }
  return checkoutCart(deps, cartId, caller, { ...body, auto_renew: false }, { gifteeIdentityId: giftee.id });
}

/** GET gift_code/{code}: its validity and whether it was redeemed; 404 not_found for any other code. */
export async function giftCodeLookup(deps: Deps, seller: Seller, code: string, address: string | undefined) {
  // Codes are 10 digits: the lookup is limited per address like the other guessable look-ups.
  if (address) await hit(deps, 'gift_code_ip', `${seller.id}:${address}`);
  const row = await deps.db
    .selectFrom('gift_code')
    .select(['code', 'role_id', 'valid_from', 'valid_to', 'redeemed_at'])
    .where('seller_id', '=', seller.id)
    .where('code', '=', code.trim())
    .executeTakeFirst();
  if (!row) throw notFoundCode(code);
  const out: GiftCodeRow = {
    code: row.code,
    role_id: row.role_id,
    valid_from: new Date(row.valid_from).toISOString(),
    valid_to: new Date(row.valid_to).toISOString(),
    exhausted: row.redeemed_at !== null,
  };
  return { gift_code: { _data: [out], _count: 1 } };
}

let unsafeReadThenRedeem = false;
/** TEST ONLY: redeem by reading the code and writing it back (the race the conditional update prevents). */
export function setUnsafeReadThenRedeemForTests(on: boolean): void {
  unsafeReadThenRedeem = on;
}

/**
 * POST my/gift_code/{code}/redeem: the logged-in user redeems a gift, once. One conditional UPDATE takes the code
 * (valid now and not redeemed); of two at the same moment one gets it. The membership is booked at no charge, from
 * the end of the user's current term of the same program if they have one.
 */
export async function redeemGiftCode(deps: Deps, seller: Seller, identityId: string, code: string, address: string | undefined) {
  if (address) await hit(deps, 'gift_code_ip', `${seller.id}:${address}`);
  const now = deps.now();
  const membershipId = await deps.db.transaction().execute(async (trx) => {
    let taken: { id: string; role_id: string; ticket_order_id: string | null; membership_members: unknown } | undefined;
    if (unsafeReadThenRedeem) {
      const read = await trx
        .selectFrom('gift_code')
        .selectAll()
        .where('seller_id', '=', seller.id)
        .where('code', '=', code.trim())
        .where('redeemed_at', 'is', null)
        .executeTakeFirst();
      if (read) await trx.updateTable('gift_code').set({ redeemed_at: now }).where('id', '=', read.id).execute();
      taken = read;
    } else {
      taken = await trx
        .updateTable('gift_code')
        .set({ redeemed_at: now })
        .where('seller_id', '=', seller.id)
        .where('code', '=', code.trim())
        .where('redeemed_at', 'is', null)
        .where('valid_from', '<=', now)
        .where('valid_to', '>=', now)
        .returning(['id', 'role_id', 'ticket_order_id', 'membership_members'])
        .executeTakeFirst();
    }
    if (!taken) {
      const row = await trx
        .selectFrom('gift_code')
        .select(['valid_from', 'valid_to', 'redeemed_at'])
        .where('seller_id', '=', seller.id)
        .where('code', '=', code.trim())
        .executeTakeFirst();
      if (!row) throw notFoundCode(code);
      const state = giftCodeState({ valid_from: row.valid_from, valid_to: row.valid_to, exhausted: row.redeemed_at !== null }, now);
      if (state === 'exhausted') throw new DomainError('gift_code_exhausted', 'This code has already been redeemed', 'gift_code');
      throw new DomainError('gift_code_expired', 'This code has expired', 'gift_code');
    }
    const role = await trx.selectFrom('role').select(['membership_program_id']).where('id', '=', taken.role_id).executeTakeFirstOrThrow();
    const current = await currentMembership(trx, identityId, now);
    const identity = await trx
      .selectFrom('identity')
      .select(['zip_code', 'first_name', 'last_name'])
      .where('id', '=', identityId)
      .executeTakeFirstOrThrow();
    const given = Array.isArray(taken.membership_members)
      ? (taken.membership_members as Array<{ party_role: string; name: string | null }>)
      : [];
    const members = given.length
      ? given
      : [{ party_role: 'member', name: [identity.first_name, identity.last_name].filter(Boolean).join(' ') || null }];
    const id = await createMembership(trx, {
      now,
      sellerId: seller.id,
      identityId,
      roleId: taken.role_id,
      renewalOf: current && current.membership_program_id === role.membership_program_id ? current.id : null,
      members,
      zip: identity.zip_code,
      autoRenew: false,
      orderId: taken.ticket_order_id,
      ticket: null,
    });
    await trx.updateTable('gift_code').set({ redeemed_membership_id: id }).where('id', '=', taken.id).execute();
    return id;
  });
  const m = await deps.db.selectFrom('membership').selectAll().where('id', '=', membershipId).executeTakeFirstOrThrow();
  const role = await deps.db.selectFrom('role').select('benefits').where('id', '=', m.role_id).executeTakeFirstOrThrow();
  return { membership: { _data: [membershipRow(m, role.benefits ?? [])], _count: 1 } };
}
