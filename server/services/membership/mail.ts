import type { Deps } from '../../deps';
import { queueMail } from '../mail';

/** Membership mails (issue 12): the giftee's code, the auto-renew outcome, the member id of forgot-membership. */

const day = (d: Date | string, timeZone: string) => new Date(d).toLocaleDateString('en-US', { timeZone, dateStyle: 'long' });

async function sellerOf(deps: Deps, sellerId: string) {
  return deps.db
    .selectFrom('seller')
    .select(['id', 'name', 'timezone', 'config', 'slug'])
    .where('id', '=', sellerId)
    .executeTakeFirstOrThrow();
}

/** The giftee of each gift code of an order receives it (once: the outbox row names the code). */
export async function sendGiftMails(deps: Deps, orderId: string): Promise<void> {
  const gifts = await deps.db
    .selectFrom('gift_code')
    .innerJoin('identity as giftee', 'giftee.id', 'gift_code.giftee_identity_id')
    .leftJoin('identity as giver', 'giver.id', 'gift_code.giver_identity_id')
    .innerJoin('role', 'role.id', 'gift_code.role_id')
    .select([
      'gift_code.id',
      'gift_code.code',
      'gift_code.seller_id',
      'gift_code.valid_to',
      'giftee.email',
      'giftee.first_name',
      'giver.first_name as giver_first',
      'giver.last_name as giver_last',
      'role.name as level',
    ])
    .where('gift_code.ticket_order_id', '=', orderId)
    .execute();
  for (const g of gifts) {
    if (!g.email) continue;
    const sent = await deps.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('kind', '=', 'membership_gift')
      .where('to_address', '=', g.email)
      .where(({ eb, ref }) => eb(eb.fn('jsonb_extract_path_text', [ref('meta'), eb.val('gift_code_id')]), '=', g.id))
      .executeTakeFirst();
    if (sent) continue;
    const seller = await sellerOf(deps, g.seller_id);
    const giver = [g.giver_first, g.giver_last].filter(Boolean).join(' ') || 'Someone';
    const text = [
      `Hello ${g.first_name ?? ''},`.trim(),
      '',
      `${giver} has given you a ${g.level} membership of ${seller.name}.`,
      `Your gift code: ${g.code}`,
      `Redeem it by ${day(g.valid_to, seller.timezone)}: log in or create an account, then open Membership > Redeem and enter the code.`,
    ].join('\n');
    await queueMail(deps, {
      sellerId: seller.id,
      kind: 'membership_gift',
      to: g.email,
      subject: `${seller.name}: a membership gift for you`,
      text,
      meta: { gift_code_id: g.id, ticket_order_id: orderId, from: seller.config?.mail_from },
    });
  }
}

/** The member hears how the automatic renewal went. */
export async function sendRenewalMail(
  deps: Deps,
  m: { sellerId: string; identityId: string; level: string; outcome: 'renewed' | 'failed'; validTo: Date },
): Promise<void> {
  const identity = await deps.db.selectFrom('identity').select(['email', 'first_name']).where('id', '=', m.identityId).executeTakeFirst();
  if (!identity?.email) return;
  const seller = await sellerOf(deps, m.sellerId);
  const text =
    m.outcome === 'renewed'
      ? `Your ${m.level} membership has been renewed automatically. It is now valid until ${day(m.validTo, seller.timezone)}.`
      : `We could not renew your ${m.level} membership automatically: the saved card was declined. Your membership ends on ${day(m.validTo, seller.timezone)}; please renew it on our website.`;
  await queueMail(deps, {
    sellerId: seller.id,
    kind: m.outcome === 'renewed' ? 'membership_renewed' : 'membership_renewal_failed',
    to: identity.email,
    subject:
      m.outcome === 'renewed' ? `${seller.name}: your membership was renewed` : `${seller.name}: your membership could not be renewed`,
    text,
    meta: { from: seller.config?.mail_from },
  });
}

/** Forgot-membership: the member id (scan code) of every current or future membership of the address. */
export async function sendMemberIdMail(
  deps: Deps,
  sellerId: string,
  email: string,
  memberships: Array<{ scan_code: string; level: string; valid_to: Date }>,
): Promise<void> {
  const seller = await sellerOf(deps, sellerId);
  const lines = memberships.map((m) => `${m.level}: member ID ${m.scan_code} (valid until ${day(m.valid_to, seller.timezone)})`);
  await queueMail(deps, {
    sellerId: seller.id,
    kind: 'member_id',
    to: email,
    subject: `${seller.name}: your member ID`,
    text: ['You asked for your member ID.', '', ...lines].join('\n'),
    meta: { from: seller.config?.mail_from },
  });
}
