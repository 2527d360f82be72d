import { randomBytes } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Deps } from '../deps';
import type { Database, Seller } from '../db/types';
import { DomainError } from './errors';
import { parseMoney } from '../../src/domain/money';
import { grandTotals } from '../../src/domain/cart-rules';
import { loadOwnedCart, sha256, type Caller } from './cart/access';
import { cartErrors } from './cart/errors';
import { surveyComplete } from './cart/survey';
import { linesOf } from './cart/view';
import { needsOf, takeCapacity } from './inventory';
import { gatewayFor, type ChargeResult } from './payments';
import { sendOrderMail } from './mail';

type Trx = Transaction<Database>;

export interface CheckoutBody {
  amount: string | number;
  gateway_id: string;
  gateway_data?: Record<string, unknown>;
  guest_identity_id?: string;
  send_email?: boolean;
}
export interface CheckoutResult {
  orderId: string;
  accessToken: string;
}

const invalid = (field: string, description: string) => new DomainError('validation_failed', description, 'checkout', { field });

/** Who the order is for: the guest identity this browser created for a public-identity cart, else the cart's identity. */
async function orderIdentity(deps: Deps, seller: Seller, cart: { identity_id: string }, caller: Caller, guestId?: string) {
  if (cart.identity_id !== seller.public_identity_id) return cart.identity_id;
  // A logged-in user paying for the cart they filled as a guest buys as themselves.
  if (!guestId && caller.identityId) return caller.identityId;
  if (!guestId) throw invalid('guest_identity_id', 'Purchaser details are required.');
  const identity = await deps.db
    .selectFrom('identity')
    .select(['id', 'meta', 'is_public'])
    .where('id', '=', guestId)
    .where('seller_id', '=', seller.id)
    .executeTakeFirst();
  if (!identity || identity.is_public) throw invalid('guest_identity_id', 'Purchaser details are required.');
  if (!caller.tokenHash || identity.meta?.owner_token_hash !== caller.tokenHash) {
    throw new DomainError('identity_access_denied', 'These purchaser details belong to another visitor.', 'checkout');
  }
  return identity.id;
}

/**
 * Moves the cart pending -> checking_out under its row lock, so one checkout at a time can reach the
 * gateway. A cart whose hold was released (expired) takes its capacity again here with the guarded
 * update, so a late payment never books beyond capacity; a pending cart past its time still holds its
 * capacity (nobody released it, the lock keeps the sweeper away) and may proceed.
 */
async function claim(trx: Trx, deps: Deps, cartId: string, amount: number, gatewayId: string) {
  const now = deps.now();
  const cart = await trx.selectFrom('cart').selectAll().where('id', '=', cartId).forUpdate().executeTakeFirstOrThrow();
  if (cart.state === 'completed') {
    throw cartErrors.booked(
      cartId,
      await trx.selectFrom('ticket_order').select(['id', 'order_number']).where('cart_id', '=', cartId).executeTakeFirst(),
    );
  }
  if (cart.state === 'checking_out') throw cartErrors.checkingOut(cartId);
  if (cart.state === 'cancelled') throw cartErrors.notPending(cartId, cart.state);
  if (cart.state === 'expired') {
    const released = await trx
      .updateTable('ticket')
      .set({ state: 'in_cart' })
      .where('cart_id', '=', cartId)
      .where('state', '=', 'cancelled')
      .returning(['event_session_id', 'ticket_group_id', 'valid_from'])
      .execute();
    if (released.length === 0 || released.some((t) => t.event_session_id && t.valid_from && new Date(t.valid_from) <= now)) {
      throw cartErrors.expired(cartId);
    }
    await takeCapacity(trx, needsOf(released));
  }
  const tickets = await trx.selectFrom('ticket').selectAll().where('cart_id', '=', cartId).where('state', '=', 'in_cart').execute();
  if (tickets.length === 0) throw new DomainError('cart_empty', 'Please select at least one ticket to continue.', 'checkout');
  const groups = await trx
    .selectFrom('ticket_group')
    .select(['id', 'additional_info_spec'])
    .where('id', 'in', [...new Set(tickets.map((t) => t.ticket_group_id))])
    .execute();
  for (const g of groups) {
    if (!surveyComplete(g.additional_info_spec, cart.additional_info?.[g.id])) {
      throw new DomainError('additional_info_validation_failed', 'Please answer the required questions.', 'checkout', {
        ticket_group_id: g.id,
      });
    }
  }
  const paid = await trx
    .selectFrom('payment')
    .select(sql<number>`coalesce(sum(amount), 0)::int`.as('sum'))
    .where('cart_id', '=', cartId)
    .where('status', '=', 'succeeded')
    .executeTakeFirstOrThrow();
  const totals = grandTotals(linesOf(tickets), Number(paid.sum));
  if (amount !== totals.total_outstanding) {
    throw new DomainError('payment_amount_incorrect', 'The amount does not match the amount due.', 'checkout', {
      field: 'amount',
      outstanding: totals.total_outstanding,
    });
  }
  if (!gatewayFor(gatewayId).accepts(amount)) {
    throw new DomainError('payment_not_supported', 'Payment is not supported for this amount.', 'checkout', { gateway_id: gatewayId });
  }
  await trx.updateTable('cart').set({ state: 'checking_out', updated_at: now }).where('id', '=', cartId).execute();
  return { cart, totals, count: tickets.length };
}

/** Books the order in one transaction: payment, order, tickets with scan codes, cart completed. */
async function book(
  trx: Trx,
  deps: Deps,
  args: {
    cartId: string;
    sellerId: string;
    identityId: string;
    gatewayId: string;
    amount: number;
    charge: ChargeResult;
    totals: ReturnType<typeof grandTotals>;
    count: number;
    accessTokenHash: string;
    info: Record<string, unknown>;
  },
) {
  const now = deps.now();
  const done = await trx
    .updateTable('cart')
    .set({ state: 'completed', expires_at: null, updated_at: now })
    .where('id', '=', args.cartId)
    .where('state', '=', 'checking_out')
    .returning('id')
    .executeTakeFirst();
  if (!done) throw new Error(`cart ${args.cartId} left checking_out during its checkout`);
  const t = args.totals;
  const fees = t.total_fee_fixed_outside + t.total_fee_percent_outside;
  const order = await trx
    .insertInto('ticket_order')
    .values({
      seller_id: args.sellerId,
      identity_id: args.identityId,
      cart_id: args.cartId,
      purchased_on: now,
      total_before_fees: t.total_before_cartmod_price,
      total_fees: fees,
      total_discount: t.total_cartmod_amount,
      total_after_fees: t.total_before_cartmod_price - t.total_cartmod_amount + fees,
      access_token_hash: args.accessTokenHash,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  // One capture per cart: the unique idempotency key refuses a second one whatever the interleaving.
  const key = `cart:${args.cartId}:capture`;
  if (args.charge.paymentId) {
    await trx
      .updateTable('payment')
      .set({ status: 'succeeded', ticket_order_id: order.id, idempotency_key: key, occurred_on: now })
      .where('id', '=', args.charge.paymentId)
      .where('status', '=', 'pending')
      .execute();
  } else {
    await trx
      .insertInto('payment')
      .values({
        seller_id: args.sellerId,
        cart_id: args.cartId,
        ticket_order_id: order.id,
        gateway_id: args.gatewayId as 'free' | 'test',
        amount: args.amount,
        status: 'succeeded',
        audit_action: 'capture',
        gateway_ref: args.charge.ref,
        idempotency_key: key,
        occurred_on: now,
      })
      .execute();
  }
  // Scan codes: 122 random bits from the server's CSPRNG (gen_random_uuid), unguessable.
  const booked = await trx
    .updateTable('ticket')
    .set({
      state: 'booked',
      ticket_order_id: order.id,
      scan_code: sql`upper(replace(gen_random_uuid()::text, '-', ''))`,
      additional_info: sql`coalesce((${JSON.stringify(args.info)})::jsonb -> ticket_group_id::text, '{}'::jsonb)`,
    })
    .where('cart_id', '=', args.cartId)
    .where('state', '=', 'in_cart')
    .returning('id')
    .execute();
  if (booked.length !== args.count) throw new Error(`cart ${args.cartId} changed during its checkout`);
  return order.id;
}

/** POST cart/{id}/guest_checkout and cart/{id}/pay. */
export async function checkoutCart(deps: Deps, cartId: string, caller: Caller, body: CheckoutBody): Promise<CheckoutResult> {
  const cart = await loadOwnedCart(deps.db, cartId, caller);
  const seller = await deps.db.selectFrom('seller').selectAll().where('id', '=', cart.seller_id).executeTakeFirstOrThrow();
  const identityId = await orderIdentity(deps, seller, cart, caller, body.guest_identity_id);
  const amount = parseMoney(body.amount);
  if (amount === null) throw invalid('amount', 'The amount is not valid.');
  const gateway = gatewayFor(body.gateway_id);

  const claimed = await deps.db.transaction().execute((trx) => claim(trx, deps, cartId, amount, gateway.id));

  let charge: ChargeResult;
  try {
    charge = await gateway.charge({
      db: deps.db,
      sellerId: seller.id,
      cartId,
      amount,
      currency: seller.currency,
      idempotencyKey: `cart:${cartId}`,
      gatewayData: body.gateway_data ?? {},
      now: deps.now(),
    });
  } catch (err) {
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('cart')
        .set({ state: 'pending', updated_at: deps.now() })
        .where('id', '=', cartId)
        .where('state', '=', 'checking_out')
        .execute();
      if (err instanceof DomainError && err.code !== 'intent_requires_action') {
        await trx
          .insertInto('payment')
          .values({
            seller_id: seller.id,
            cart_id: cartId,
            gateway_id: gateway.id,
            amount,
            status: 'failed',
            audit_action: 'capture',
            gateway_ref: err.code,
            idempotency_key: `cart:${cartId}:failed:${randomBytes(8).toString('hex')}`,
          })
          .execute();
      }
    });
    throw err;
  }

  const accessToken = randomBytes(16).toString('hex');
  const orderId = await deps.db.transaction().execute((trx) =>
    book(trx, deps, {
      cartId,
      sellerId: seller.id,
      identityId,
      gatewayId: gateway.id,
      amount,
      charge,
      totals: claimed.totals,
      count: claimed.count,
      accessTokenHash: sha256(accessToken),
      info: claimed.cart.additional_info ?? {},
    }),
  );

  if (body.send_email !== false) {
    try {
      await sendOrderMail(deps, orderId);
    } catch {
      // The order stands; the outbox row (or its absence) shows the mail needs resending.
    }
  }
  return { orderId, accessToken };
}

/** POST user: the purchaser's details for a guest checkout (spec section 5 rules). */
export interface GuestIdentityBody {
  first_name: string;
  last_name: string;
  email: string;
  email_confirm?: string;
  phone?: string | null;
  zip_code?: string | null;
  zip?: string | null;
  address?: string | null;
  address_more?: string | null;
  city?: string | null;
  state?: string | null;
  region?: string | null;
  country?: string | null;
  additional_info?: Record<string, unknown>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ZIP = /^[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$/;

export function validateGuestIdentity(body: GuestIdentityBody) {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const first = text(body.first_name);
  const last = text(body.last_name);
  const email = text(body.email);
  if (!first) throw invalid('first_name', 'First name is required.');
  if (first.length > 50) throw invalid('first_name', 'First name must be at most 50 characters.');
  if (!last) throw invalid('last_name', 'Last name is required.');
  if (last.length > 50) throw invalid('last_name', 'Last name must be at most 50 characters.');
  if (!email) throw invalid('email', 'Email is required.');
  if (email.length > 254 || !EMAIL.test(email)) throw invalid('email', 'Email address is not valid.');
  if (body.email_confirm !== undefined && text(body.email_confirm).toLowerCase() !== email.toLowerCase()) {
    throw invalid('email_confirm', 'Email addresses must match.');
  }
  const phone = text(body.phone);
  if (phone.length > 50) throw invalid('phone', 'Phone must be at most 50 characters.');
  const zip = text(body.zip_code ?? body.zip);
  if (zip && (zip.length < 4 || zip.length > 10 || !ZIP.test(zip))) throw invalid('zip_code', 'Zip or post code is not valid.');
  const extra = body.additional_info ?? {};
  for (const [key, value] of Object.entries(extra)) {
    if (typeof value === 'string' && value.length > 1000) throw invalid(`additional_info.${key}`, 'Must be at most 1000 characters.');
  }
  const other = (v: unknown, field: string) => {
    const s = text(v);
    if (s.length > 1000) throw invalid(field, 'Must be at most 1000 characters.');
    return s || null;
  };
  return {
    first_name: first,
    last_name: last,
    email,
    phone: phone || null,
    zip_code: zip || null,
    address: other(body.address, 'address'),
    address_more: other(body.address_more, 'address_more'),
    city: other(body.city, 'city'),
    state: other(body.state, 'state'),
    region: other(body.region, 'region'),
    country: other(body.country, 'country'),
    additional_info: extra,
  };
}

/** Creates the guest identity, bound to this browser's owner token so only it can check out with it. */
export async function createGuestIdentity(deps: Deps, seller: Seller, caller: Caller, body: GuestIdentityBody): Promise<string> {
  const fields = validateGuestIdentity(body);
  const row = await deps.db
    .insertInto('identity')
    .values({
      seller_id: seller.id,
      is_public: false,
      ...fields,
      additional_info: JSON.stringify(fields.additional_info),
      meta: JSON.stringify({ guest: true, owner_token_hash: caller.tokenHash }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
