import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Membership } from '../../db/types';
import { DomainError } from '../errors';
import { cardGatewayId, gatewayFor } from '../payments';
import type { ReusableMethod } from '../payments/types';
import { needsOf, releaseCapacity, takeCapacity } from '../inventory';
import { claim } from '../checkout/claim';
import { bookAttempt, releaseAttempt } from '../checkout/book';
import { outsideFees, ticketPrice } from '../../../src/domain/cart-rules';
import { sendRenewalMail } from './mail';
import { membershipRow } from './rows';
import { keepMethod } from '../saved-payment-methods';

/** How long before a term ends its automatic renewal is charged. */
export const RENEW_AHEAD_DAYS = 3;
/** Declined renewals are tried again daily, this many times in all. */
export const RENEW_MAX_TRIES = 3;

/**
 * After a checkout that kept a card or paid with a saved one: the shopper who opted in keeps the card (a saved payment
 * method of theirs), and each auto-renewing membership of the order renews with its member's card: the one kept or
 * used here when the member is that shopper, else (a membership for someone else's identity) one kept for them.
 */
export async function rememberPaymentMethod(
  deps: Deps,
  orderId: string,
  gatewayId: string,
  k: {
    sellerId: string;
    kept?: ReusableMethod;
    existing?: { id: string; identityId: string };
    shopperIdentityId: string | null;
  },
): Promise<void> {
  const byIdentity = new Map<string, string>();
  if (k.existing) byIdentity.set(k.existing.identityId, k.existing.id);
  if (k.kept && k.shopperIdentityId) {
    const id = await keepMethod(deps, { sellerId: k.sellerId, identityId: k.shopperIdentityId, gatewayId, method: k.kept });
    byIdentity.set(k.shopperIdentityId, id);
  }
  const memberships = await deps.db
    .selectFrom('membership')
    .select(['id', 'identity_id', 'seller_id'])
    .where('ticket_order_id', '=', orderId)
    .where('auto_renew_state', '=', 'scheduled')
    .execute();
  for (const m of memberships) {
    if (!m.identity_id) continue;
    let methodId = byIdentity.get(m.identity_id);
    if (!methodId && k.kept) {
      methodId = await keepMethod(deps, { sellerId: m.seller_id, identityId: m.identity_id, gatewayId, method: k.kept });
      byIdentity.set(m.identity_id, methodId);
    }
    if (methodId) await deps.db.updateTable('membership').set({ payment_method_id: methodId }).where('id', '=', m.id).execute();
  }
}

/**
 * DELETE ticket_order/{id}/auto_renew: the logged-in member's membership bought by that order (or, for a membership
 * that came without an order, named by its own id) stops renewing. Only a scheduled renewal can be cancelled, once:
 * a conditional update decides.
 */
export async function cancelAutoRenew(deps: Deps, sellerId: string, identityId: string, id: string) {
  const mine = await deps.db
    .selectFrom('membership')
    .select(['id'])
    .where('seller_id', '=', sellerId)
    .where('identity_id', '=', identityId)
    .where((eb) => eb.or([eb('ticket_order_id', '=', id), eb('id', '=', id)]))
    .orderBy('valid_to', 'desc')
    .execute();
  if (mine.length === 0) throw new DomainError('not_found', 'We could not find that membership.', 'auto_renew', { id });
  const cancelled = await deps.db
    .updateTable('membership')
    .set({ auto_renew_state: 'cancelled' })
    .where(
      'id',
      'in',
      mine.map((m) => m.id),
    )
    .where('auto_renew_state', '=', 'scheduled')
    .returningAll()
    .executeTakeFirst();
  if (!cancelled) throw new DomainError('auto_renew_not_scheduled', 'This membership is not enrolled in auto-renew.', 'auto_renew', { id });
  return { membership: { _data: [membershipRow(cancelled, [])], _count: 1 } };
}

/**
 * The auto-renew job: every scheduled membership ending within RENEW_AHEAD_DAYS (and not renewed yet) is renewed by
 * a checkout of its level for its member, charged to the card kept at purchase, through the same claim, charge and
 * booking as a shopper's checkout (so the reconciler covers a crash in between). No transaction spans the charge.
 */
export async function renewDueMemberships(deps: Deps): Promise<{ renewed: number; failed: number }> {
  const now = deps.now();
  const due = await deps.db
    .selectFrom('membership as m')
    .selectAll('m')
    .where('m.state', '=', 'active')
    .where('m.auto_renew_state', '=', 'scheduled')
    .where('m.valid_to', '<=', new Date(now.getTime() + RENEW_AHEAD_DAYS * 86_400_000))
    .where('m.valid_to', '>', new Date(now.getTime() - 86_400_000))
    .where('m.renew_failures', '<', RENEW_MAX_TRIES)
    .where((eb) => eb.or([eb('m.renew_attempted_at', 'is', null), eb('m.renew_attempted_at', '<', new Date(now.getTime() - 86_400_000))]))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('membership as next').select('next.id').whereRef('next.renewed_from_id', '=', 'm.id'))))
    .limit(50)
    .execute();
  let renewed = 0;
  let failed = 0;
  for (const m of due) {
    const outcome = await renewOne(deps, m);
    if (outcome === 'renewed') renewed += 1;
    if (outcome === 'failed') failed += 1;
  }
  return { renewed, failed };
}

/**
 * The card a renewal charges: the one the membership was bought (or last renewed) with while its member still keeps
 * it, else the member's newest saved card on the seller's card gateway. None: the renewal fails as a declined card
 * would (the member is mailed; it is tried again daily, RENEW_MAX_TRIES in all, so a card saved meanwhile is used).
 */
async function renewalMethod(deps: Deps, m: Membership) {
  if (m.payment_method_id) {
    const own = await deps.db.selectFrom('payment_method').selectAll().where('id', '=', m.payment_method_id).executeTakeFirst();
    if (own) return own;
  }
  if (!m.identity_id) return undefined;
  const seller = await deps.db.selectFrom('seller').select('config').where('id', '=', m.seller_id).executeTakeFirstOrThrow();
  return deps.db
    .selectFrom('payment_method')
    .selectAll()
    .where('seller_id', '=', m.seller_id)
    .where('identity_id', '=', m.identity_id)
    .where('gateway_id', '=', cardGatewayId(deps.config, seller.config as Record<string, unknown> | null))
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

async function renewOne(deps: Deps, m: Membership): Promise<'renewed' | 'failed' | 'skipped'> {
  const now = deps.now();
  // Claim the round for this membership: two servers running the job renew it once.
  const claimed = await deps.db
    .updateTable('membership')
    .set({ renew_attempted_at: now })
    .where('id', '=', m.id)
    .where((eb) => eb.or([eb('renew_attempted_at', 'is', null), eb('renew_attempted_at', '<', new Date(now.getTime() - 86_400_000))]))
    .returning('id')
    .executeTakeFirst();
  if (!claimed || !m.identity_id) return 'skipped';
  const role = await deps.db.selectFrom('role').selectAll().where('id', '=', m.role_id).executeTakeFirstOrThrow();
  const method = await renewalMethod(deps, m);
  const fail = async () => {
    await deps.db
      .updateTable('membership')
      .set({ renew_failures: sql`renew_failures + 1` })
      .where('id', '=', m.id)
      .execute();
    await sendRenewalMail(deps, {
      sellerId: m.seller_id,
      identityId: m.identity_id!,
      level: role.name,
      outcome: 'failed',
      validTo: new Date(m.valid_to),
    });
    return 'failed' as const;
  };
  if (!method || !role.ticket_type_id) return fail();
  const gateway = gatewayFor(deps.config, method.gateway_id);

  const attempt = await deps.db.transaction().execute(async (trx) => {
    const type = await trx.selectFrom('ticket_type').selectAll().where('id', '=', role.ticket_type_id!).executeTakeFirstOrThrow();
    const group = await trx.selectFrom('ticket_group').selectAll().where('id', '=', type.ticket_group_id).executeTakeFirstOrThrow();
    const cart = await trx
      .insertInto('cart')
      .values({
        seller_id: m.seller_id,
        identity_id: m.identity_id!,
        owner_token_hash: null,
        address_hash: null,
        channel_id: 'auto_renew',
        campaign: null,
        additional_info: '{}',
        expires_at: new Date(now.getTime() + 15 * 60_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const price = ticketPrice(type, 0);
    const fees = outsideFees(price.adjusted_value, type.outside_fees);
    const members = m.members?.length ? m.members : [{ party_role: 'member', name: null }];
    const rows = members.map((member, i) => ({
      seller_id: m.seller_id,
      cart_id: cart.id,
      event_template_id: group.event_template_id,
      event_session_id: null,
      ticket_group_id: group.id,
      ticket_type_id: type.id,
      state: 'in_cart' as const,
      handler: 'membership',
      admit_name: member.name,
      face_value: i === 0 ? price.face_value : 0,
      adjusted_value: i === 0 ? price.adjusted_value : 0,
      fees: i === 0 ? fees.fixed + fees.percent : 0,
      additional_info: '{}',
      handler_data: JSON.stringify({
        primary: i === 0,
        party_role: member.party_role,
        role_id: role.id,
        renewal_of: m.id,
        fee_fixed: i === 0 ? fees.fixed : 0,
        fee_percent: i === 0 ? fees.percent : 0,
      }),
    }));
    await trx.insertInto('ticket').values(rows).execute();
    await takeCapacity(trx, needsOf(rows));
    const amount = price.adjusted_value + fees.fixed + fees.percent;
    return claim(trx, deps, {
      cartId: cart.id,
      sellerId: m.seller_id,
      amount,
      gateway,
      identityId: m.identity_id!,
      sendEmail: false,
      source: null,
      autoRenew: true,
    });
  });

  try {
    const charge = await gateway.charge({
      db: deps.db,
      sellerId: m.seller_id,
      cartId: attempt.cart_id,
      amount: attempt.amount,
      currency: (await deps.db.selectFrom('seller').select('currency').where('id', '=', m.seller_id).executeTakeFirstOrThrow()).currency,
      idempotencyKey: attempt.idempotency_key,
      gatewayData: {},
      savedToken: method.token,
      identityId: m.identity_id,
      // Nobody is there to confirm a renewal: a card that asks for 3-D Secure declines it, and the member is told.
      offSession: true,
      now: deps.now(),
    });
    const booked = await deps.db
      .transaction()
      .execute((trx) => bookAttempt(trx, deps, attempt.id, { ref: charge.ref, accessTokenHash: null }));
    if (booked.kind !== 'booked') return 'skipped';
    const next = await deps.db
      .selectFrom('membership')
      .select(['id', 'valid_to'])
      .where('renewed_from_id', '=', m.id)
      .executeTakeFirstOrThrow();
    await deps.db.updateTable('membership').set({ payment_method_id: method.id }).where('id', '=', next.id).execute();
    await sendRenewalMail(deps, {
      sellerId: m.seller_id,
      identityId: m.identity_id,
      level: role.name,
      outcome: 'renewed',
      validTo: new Date(next.valid_to),
    });
    return 'renewed';
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    await releaseAttempt(deps, attempt, { status: 'failed', ref: err.code });
    // The renewal's cart goes away with its hold.
    await deps.db.transaction().execute(async (trx) => {
      await trx.updateTable('cart').set({ state: 'cancelled', updated_at: deps.now() }).where('id', '=', attempt.cart_id).execute();
      const released = await trx
        .deleteFrom('ticket')
        .where('cart_id', '=', attempt.cart_id)
        .where('state', '=', 'in_cart')
        .returning(['event_session_id', 'ticket_group_id'])
        .execute();
      await releaseCapacity(trx, needsOf(released));
    });
    return fail();
  }
}
