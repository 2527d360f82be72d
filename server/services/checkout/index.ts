import { randomBytes } from 'node:crypto';
import type { Deps } from '../../deps';
import { DomainError } from '../errors';
import { parseMoney } from '../../../src/domain/money';
import { loadOwnedCart, sha256, type Caller } from '../cart/access';
import { cartErrors } from '../cart/errors';
import { cardGatewayId, gatewayFor, type ChargeResult } from '../payments';
import { sendOrderMail } from '../order-mail';
import { claim, orderIdentity } from './claim';
import { bookAttempt, oweAndRefund, refundedError, releaseAttempt } from './book';
import { settleAttempt } from './reconcile';
import { seatTakenInCart } from '../seats';
import { citypassTakenInCart } from '../citypass';
import { rememberPaymentMethod } from '../membership/auto-renew';
import { ownSavedMethod } from '../saved-payment-methods';
import { sendGiftMails } from '../membership/mail';
import { checkGiftCard } from './gift-card';

export { createGuestIdentity, validateGuestIdentity, type GuestIdentityBody } from './guest-identity';
export { reconcilePayments } from './reconcile';

export interface CheckoutBody {
  amount: string | number;
  gateway_id: string;
  gateway_data?: Record<string, unknown>;
  guest_identity_id?: string;
  /** the signed proof of a 409 email_in_use: this browser gave that account's password (issue 13) */
  guest_identity_proof?: string;
  send_email?: boolean;
  auto_renew?: boolean;
  save_payment_method?: boolean;
}
/** What a gift checkout adds (membership/gifts.ts checks it before the checkout runs). */
export interface CheckoutExtras {
  gifteeIdentityId?: string | null;
}
export type CheckoutResult =
  /** `edit`: an edit cart booked into its order (issue 17); the order's own access token is not handed out again */
  | { kind: 'completed'; orderId: string; accessToken: string; edit?: boolean }
  /** The provider is still clearing the payment (a debit): the webhook books the cart when it clears. */
  | { kind: 'pending'; cartId: string; cartNumber: string }
  /** A gift card paid part of the cart: the rest is still outstanding and the cart is the shopper's again. */
  | { kind: 'partial'; cartId: string };

/**
 * POST cart/{id}/guest_checkout and cart/{id}/pay. Three steps, never a transaction across the gateway call:
 * claim the cart and write the attempt; charge; book the order together with the attempt's outcome. A process that
 * dies between the charge and the booking leaves the attempt pending, and the reconciler finishes it.
 */
export async function checkoutCart(
  deps: Deps,
  cartId: string,
  caller: Caller,
  body: CheckoutBody,
  extras: CheckoutExtras = {},
): Promise<CheckoutResult> {
  const cart = await loadOwnedCart(deps.db, cartId, caller);
  // Editing an order needs the visitor logged out (spec section 6), its checkout too.
  if (cart.edit_order_id && caller.identityId)
    throw new DomainError('order_not_self_editable', 'Please log out to change your order.', 'self_edit', {
      ticket_order_id: cart.edit_order_id,
      reason: 'logged_in',
    });
  const seller = await deps.db.selectFrom('seller').selectAll().where('id', '=', cart.seller_id).executeTakeFirstOrThrow();
  const identityId = await orderIdentity(deps, seller, cart, caller, body.guest_identity_id, body.guest_identity_proof);
  const amount = parseMoney(body.amount);
  if (amount === null) throw new DomainError('validation_failed', 'The amount is not valid.', 'checkout', { field: 'amount' });
  // Cards go through the seller's own gateway: a test card never pays a Stripe seller's order.
  if (body.gateway_id !== 'free' && body.gateway_id !== 'ledger' && body.gateway_id !== cardGatewayId(deps.config, seller.config)) {
    throw new DomainError('gateway_not_found', `Payment gateway ${body.gateway_id} is not configured.`, 'payment', {
      gateway_id: body.gateway_id,
    });
  }
  const gateway = gatewayFor(deps.config, body.gateway_id);
  const source = typeof body.gateway_data?.source === 'string' ? body.gateway_data.source : null;
  // A saved card is the logged-in shopper's own (404 otherwise), checked before anything is claimed.
  const savedId = body.gateway_data?.saved_payment_method;
  const saved = typeof savedId === 'string' ? await ownSavedMethod(deps, seller.id, caller.identityId, savedId, gateway.id) : null;
  if (body.save_payment_method === true && !caller.identityId)
    throw new DomainError('not_authenticated', 'Log in to keep a card for next time.', 'saved_payment_method');
  // Auto-renew charges the card kept at purchase: a gift card keeps nothing to charge next year.
  const autoRenew = body.auto_renew === true && !extras.gifteeIdentityId && gateway.id !== 'ledger';
  if (gateway.id === 'ledger') await checkGiftCard(deps, seller.id, cartId, body.gateway_data?.number, amount, caller.addressHash);

  // A late payment brings back released holds; a seat or CityPASS code someone took meanwhile refuses it before any charge.
  const attempt = await deps.db
    .transaction()
    .execute((trx) =>
      claim(trx, deps, {
        cartId,
        sellerId: seller.id,
        amount,
        gateway,
        identityId,
        sendEmail: body.send_email !== false,
        source,
        autoRenew,
        gifteeIdentityId: extras.gifteeIdentityId ?? null,
      }),
    )
    .catch(async (err: unknown) => {
      throw (await seatTakenInCart(deps.db, err, cartId)) ?? (await citypassTakenInCart(deps.db, err, cartId)) ?? err;
    });

  let charge: ChargeResult;
  try {
    charge = await gateway.charge({
      db: deps.db,
      sellerId: seller.id,
      cartId,
      amount,
      currency: seller.currency,
      idempotencyKey: attempt.idempotency_key,
      gatewayData: body.gateway_data ?? {},
      now: deps.now(),
      reference: String(cart.cart_number),
      // Kept when the shopper asks, and for auto-renew, which charges the same card next year (membership/auto-renew.ts).
      savePaymentMethod: !saved && (autoRenew || body.save_payment_method === true),
      identityId: caller.identityId ?? identityId,
      ...(saved ? { savedToken: saved.token } : {}),
    });
  } catch (err) {
    if (err instanceof DomainError) {
      const intent = err.code === 'intent_requires_action' ? String(err.extra?.intent_id ?? '') : '';
      await releaseAttempt(deps, attempt, intent ? { status: 'requires_action', ref: intent } : { status: 'failed', ref: err.code });
      throw err;
    }
    // No answer (a timeout, a lost connection): whether money moved is the provider's to say. Ask now; if even that
    // fails the attempt stays pending and the reconciler settles it.
    await settleAttempt(deps, attempt).catch(() => undefined);
    throw err;
  }

  if (charge.status === 'processing') {
    // A debit awaiting clearance: the attempt stays pending with the provider's reference, the cart stays claimed
    // (its places held), and the webhook (or the reconciler) books it or releases it when the provider decides.
    await deps.db
      .updateTable('payment')
      .set({ gateway_ref: charge.ref, updated_at: deps.now() })
      .where('id', '=', attempt.id)
      .where('status', '=', 'pending')
      .execute();
    return { kind: 'pending', cartId, cartNumber: String(cart.cart_number) };
  }
  const accessToken = randomBytes(16).toString('hex');
  const outcome = await deps.db
    .transaction()
    .execute((trx) => bookAttempt(trx, deps, attempt.id, { ref: charge.ref, accessTokenHash: sha256(accessToken) }));
  if (outcome.kind === 'partial') return { kind: 'partial', cartId };
  if (outcome.kind === 'booked') {
    if (charge.reusable || saved) {
      // The order stands whatever keeping the card does; at worst the card is not offered next time.
      await rememberPaymentMethod(deps, outcome.orderId, gateway.id, {
        sellerId: seller.id,
        kept: charge.reusable,
        ...(saved ? { existing: { id: saved.id, identityId: caller.identityId! } } : {}),
        shopperIdentityId: body.save_payment_method === true ? caller.identityId : null,
      }).catch(() => undefined);
    }
    // The giftee's code goes out whatever the giver chose for the receipt.
    await sendGiftMails(deps, outcome.orderId).catch(() => undefined);
    if (body.send_email !== false) {
      // The order stands whatever the mail does; the outbox row (or its absence) shows the mail needs resending.
      await sendOrderMail(deps, outcome.orderId, outcome.edit ? 'order_update' : 'order_tickets').catch(() => undefined);
    }
    return { kind: 'completed', orderId: outcome.orderId, accessToken, ...(outcome.edit ? { edit: true } : {}) };
  }
  // The reconciler settled a part payment first: the cart is the shopper's again with the rest owed.
  if (outcome.kind === 'settled' && outcome.status === 'succeeded' && !outcome.orderId) return { kind: 'partial', cartId };
  if (outcome.kind === 'settled' && outcome.status === 'succeeded') {
    // The reconciler booked this very charge while the gateway was slow to answer.
    throw cartErrors.booked(
      cartId,
      await deps.db.selectFrom('ticket_order').select(['id', 'order_number']).where('cart_id', '=', cartId).executeTakeFirst(),
    );
  }
  await oweAndRefund(deps, attempt.id, charge.ref);
  throw refundedError(cartId);
}
