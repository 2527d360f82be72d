import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';
import type { ResendAnswer } from '../../../src/contract/account';
import { DomainError } from '../errors';
import { sendOrderMail } from '../order-mail';
import { hit } from './rate-limit';
import { isEmail, normalEmail } from './tokens';
import { sendMemberIdMail } from '../membership/mail';

/** At most this many recent orders are mailed again per request. */
export const RESEND_MAX_ORDERS = 10;
export const NO_ORDERS_TEXT = 'No orders could be found for this email address.';

const noOrders = () => new DomainError('not_found', NO_ORDERS_TEXT, 'resend');

/** Orders with tickets still valid (booked), newest first; only membership tickets when asked. */
function ordersQuery(deps: Deps, sellerId: string, membershipsOnly: boolean) {
  const q = deps.db
    .selectFrom('ticket_order')
    .innerJoin('identity', 'identity.id', 'ticket_order.identity_id')
    .select(['ticket_order.id'])
    .where('ticket_order.seller_id', '=', sellerId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('ticket')
          .select('ticket.id')
          .whereRef('ticket.ticket_order_id', '=', 'ticket_order.id')
          .where('ticket.state', 'in', ['booked', 'redeemed'])
          .$if(membershipsOnly, (w) => w.where('ticket.handler', '=', 'membership')),
      ),
    );
  return q.orderBy('ticket_order.purchased_on', 'desc').limit(RESEND_MAX_ORDERS);
}

/** Mails each order; the answer counts the mails that went out (no rows: nothing about the orders is shown). */
async function mailAll(deps: Deps, orderIds: string[]): Promise<ResendAnswer> {
  let sent = 0;
  for (const id of orderIds) if (await sendOrderMail(deps, id)) sent += 1;
  return { ticket_order: { _data: [], _count: sent } };
}

/**
 * POST ticket_order/resend: the order mails again, to the address on the orders (never elsewhere).
 * 404 with the spec's text when the address has no orders.
 */
export async function resendByEmail(
  deps: Deps,
  seller: Seller,
  rawEmail: string,
  membershipsOnly: boolean,
  ip: string,
): Promise<ResendAnswer> {
  const email = normalEmail(rawEmail);
  if (!isEmail(email)) throw new DomainError('validate_not_email', 'Email address is not valid.', 'resend', { field: 'email' });
  await hit(deps, 'resend_ip', `${seller.id}:${ip}`);
  await hit(deps, 'resend_email', `${seller.id}:${email}`);
  const orders = await ordersQuery(deps, seller.id, membershipsOnly)
    .where(sql<string>`lower(identity.email)`, '=', email)
    .execute();
  // Forgot-membership: every member hears their member ID, those of the catalogue (no order) included.
  const memberMail = membershipsOnly ? await mailMemberIds(deps, seller, email) : 0;
  if (!orders.length && !memberMail) throw noOrders();
  const answer = await mailAll(
    deps,
    orders.map((o) => o.id),
  );
  answer.ticket_order._count += memberMail;
  return answer;
}

/** The member IDs of the address's current and coming memberships, in one mail; 1 when it went out. */
async function mailMemberIds(deps: Deps, seller: Seller, email: string): Promise<number> {
  const rows = await deps.db
    .selectFrom('membership')
    .innerJoin('identity', 'identity.id', 'membership.identity_id')
    .innerJoin('role', 'role.id', 'membership.role_id')
    .select(['membership.scan_code', 'membership.valid_to', 'role.name as level', 'identity.email'])
    .where('membership.seller_id', '=', seller.id)
    .where('membership.state', '=', 'active')
    .where('membership.valid_to', '>', deps.now())
    .where(sql<string>`lower(identity.email)`, '=', email)
    .orderBy('membership.valid_to')
    .limit(RESEND_MAX_ORDERS)
    .execute();
  if (!rows.length) return 0;
  await sendMemberIdMail(
    deps,
    seller.id,
    rows[0].email!,
    rows.map((r) => ({ scan_code: r.scan_code, level: r.level, valid_to: new Date(r.valid_to) })),
  );
  return 1;
}

/** POST my/ticket_order/resend: the logged-in user's own orders. */
export async function resendMine(deps: Deps, seller: Seller, identityId: string, membershipsOnly: boolean): Promise<ResendAnswer> {
  await hit(deps, 'resend_email', `${seller.id}:identity:${identityId}`);
  const orders = await ordersQuery(deps, seller.id, membershipsOnly).where('ticket_order.identity_id', '=', identityId).execute();
  if (!orders.length) throw noOrders();
  return mailAll(
    deps,
    orders.map((o) => o.id),
  );
}
