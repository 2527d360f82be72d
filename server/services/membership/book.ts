import { randomInt } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Database, MemberEntry } from '../../db/types';
import { termEnd } from '../../../src/domain/membership';

type Trx = Transaction<Database>;

/** Scan codes of membership cards: 10 characters without look-alikes (no 0/O, 1/I/L). */
const SCAN_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const newScanCode = () => Array.from({ length: 10 }, () => SCAN_ALPHABET[randomInt(SCAN_ALPHABET.length)]).join('');
/** The spec's gift code: 10 digits. */
export const newGiftCode = () => Array.from({ length: 10 }, () => String(randomInt(10))).join('');
/** How long a gift of membership may be redeemed. */
export const GIFT_CODE_MONTHS = 12;

export interface BookedMemberships {
  membershipIds: string[];
  giftCodeIds: string[];
}

/**
 * Memberships of a booked order (issue 12), in the booking's transaction: each level in the cart (its primary line and
 * the lines of its further members) becomes a membership of the order's identity, or, when the cart is a gift, a gift
 * code for the giftee. A renewal starts where the current term ends; auto-renew is scheduled when the buyer chose it.
 */
export async function bookMemberships(
  trx: Trx,
  args: { now: Date; sellerId: string; cartId: string; orderId: string; identityId: string },
): Promise<BookedMemberships> {
  const out: BookedMemberships = { membershipIds: [], giftCodeIds: [] };
  const lines = await trx
    .selectFrom('ticket')
    .select(['id', 'ticket_type_id', 'ticket_group_id', 'event_template_id', 'admit_name', 'handler_data'])
    .where('ticket_order_id', '=', args.orderId)
    .where('handler', '=', 'membership')
    .orderBy('created_at')
    .orderBy(sql`coalesce((handler_data->>'position')::int, 0)`)
    .orderBy('id')
    .execute();
  if (lines.length === 0) return out;
  const cart = await trx
    .selectFrom('cart')
    .select(['auto_renew', 'giftee_identity_id'])
    .where('id', '=', args.cartId)
    .executeTakeFirstOrThrow();
  const identity = await trx.selectFrom('identity').select(['zip_code']).where('id', '=', args.identityId).executeTakeFirstOrThrow();
  for (const primary of lines.filter((l) => l.handler_data?.primary !== false)) {
    const role = await trx.selectFrom('role').selectAll().where('ticket_type_id', '=', primary.ticket_type_id).executeTakeFirstOrThrow();
    const members: MemberEntry[] = lines
      .filter((l) => l.ticket_type_id === primary.ticket_type_id)
      .map((l) => ({ party_role: String(l.handler_data?.party_role ?? 'member'), name: l.admit_name }));
    if (cart.giftee_identity_id) {
      const gift = await trx
        .insertInto('gift_code')
        .values({
          seller_id: args.sellerId,
          code: newGiftCode(),
          role_id: role.id,
          ticket_order_id: args.orderId,
          giver_identity_id: args.identityId,
          giftee_identity_id: cart.giftee_identity_id,
          valid_from: args.now,
          valid_to: termEnd(args.now, GIFT_CODE_MONTHS),
          membership_members: JSON.stringify(members),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      out.giftCodeIds.push(gift.id);
      continue;
    }
    const renewalOf = typeof primary.handler_data?.renewal_of === 'string' ? primary.handler_data.renewal_of : null;
    const membership = await createMembership(trx, {
      now: args.now,
      sellerId: args.sellerId,
      identityId: args.identityId,
      roleId: role.id,
      renewalOf,
      members,
      zip: identity.zip_code,
      autoRenew: cart.auto_renew,
      orderId: args.orderId,
      ticket: primary,
    });
    out.membershipIds.push(membership);
  }
  return out;
}

/**
 * A membership term for an identity: from now, or from the end of the term it renews (when that term is the
 * identity's and has not ended).
 */
export async function createMembership(
  trx: Trx,
  a: {
    now: Date;
    sellerId: string;
    identityId: string;
    roleId: string;
    renewalOf: string | null;
    members: MemberEntry[];
    zip: string | null;
    autoRenew: boolean;
    orderId: string | null;
    ticket: { id: string; ticket_group_id: string; event_template_id: string } | null;
  },
): Promise<string> {
  const role = await trx.selectFrom('role').selectAll().where('id', '=', a.roleId).executeTakeFirstOrThrow();
  const previous = a.renewalOf
    ? await trx
        .selectFrom('membership')
        .select(['id', 'valid_to'])
        .where('id', '=', a.renewalOf)
        .where('identity_id', '=', a.identityId)
        .where('state', '=', 'active')
        .forUpdate()
        .executeTakeFirst()
    : undefined;
  const from = previous && new Date(previous.valid_to).getTime() > a.now.getTime() ? new Date(previous.valid_to) : a.now;
  const levelTicket = a.ticket ?? (role.ticket_type_id ? await levelTarget(trx, role.ticket_type_id) : null);
  const row = await trx
    .insertInto('membership')
    .values({
      seller_id: a.sellerId,
      identity_id: a.identityId,
      role_id: role.id,
      membership_program_id: role.membership_program_id,
      ticket_order_id: a.orderId,
      ticket_id: a.ticket?.id ?? null,
      ticket_group_id: levelTicket?.ticket_group_id ?? null,
      event_template_id: levelTicket?.event_template_id ?? null,
      scan_code: newScanCode(),
      zip_code: a.zip,
      valid_from: from,
      valid_to: termEnd(from, role.duration_months),
      auto_renew_state: a.autoRenew ? 'scheduled' : 'other',
      member_event_purchase_limit: role.member_event_purchase_limit,
      members: JSON.stringify(a.members),
      renewed_from_id: previous?.id ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // The renewed term's own auto-renew has done its work: the new term carries the choice from now on.
  if (previous)
    await trx
      .updateTable('membership')
      .set({ auto_renew_state: 'other' })
      .where('id', '=', previous.id)
      .where('auto_renew_state', '=', 'scheduled')
      .execute();
  return row.id;
}

async function levelTarget(trx: Trx, typeId: string) {
  return trx
    .selectFrom('ticket_type')
    .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
    .select(['ticket_group.id as ticket_group_id', 'ticket_group.event_template_id'])
    .where('ticket_type.id', '=', typeId)
    .executeTakeFirst();
}
