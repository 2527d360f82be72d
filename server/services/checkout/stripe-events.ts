import type Stripe from 'stripe';
import type { Deps } from '../../deps';
import type { Payment } from '../../db/types';
import { DomainError } from '../errors';
import { gatewayFor, stripeClient } from '../payments';
import { sendOrderMail } from '../order-mail';
import { sendGiftMails } from '../membership/mail';
import { claim } from './claim';
import { bookAttempt, refundOwed, releaseAttempt } from './book';

/**
 * Stripe's webhook (POST /api/stripe/webhook, DESIGN.md section 5): fulfilment never depends on the browser coming
 * back. The event only says which intent to look at; what the intent is now is read from Stripe (outside any
 * transaction), so events arriving late, twice or out of order all lead to the same state, and the attempt's row
 * lock (bookAttempt) decides between the webhook and the browser's own checkout, so the cart is booked once.
 */
export type WebhookOutcome = 'duplicate' | 'ignored' | 'booked' | 'released' | 'refunded' | 'waiting' | 'settled';

const HANDLED = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed', 'payment_intent.processing']);

export async function handleStripeEvent(deps: Deps, event: Stripe.Event): Promise<WebhookOutcome> {
  const seen = await deps.db
    .selectFrom('webhook_event')
    .select('id')
    .where('id', '=', event.id)
    .where('provider', '=', 'stripe')
    .executeTakeFirst();
  if (seen) return 'duplicate';
  let outcome: WebhookOutcome = 'ignored';
  if (HANDLED.has(event.type)) outcome = await settleIntent(deps, (event.data.object as Stripe.PaymentIntent).id);
  // Recorded once handled: an event whose handling failed is answered 500 and Stripe sends it again.
  await deps.db
    .insertInto('webhook_event')
    .values({ id: event.id, provider: 'stripe' })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return outcome;
}

/** Brings the attempt that made this intent in line with what Stripe says of the intent now. */
export async function settleIntent(deps: Deps, intentId: string): Promise<WebhookOutcome> {
  const intent = await stripeClient(deps.config).paymentIntents.retrieve(intentId);
  const key = intent.metadata?.attempt_key;
  const attempt = key
    ? await deps.db
        .selectFrom('payment')
        .selectAll()
        .where('idempotency_key', '=', key)
        .where('gateway_id', '=', 'stripe')
        .executeTakeFirst()
    : undefined;
  // Not ours (another integration on the same account, or a cart from another database).
  if (!attempt || attempt.cart_id !== intent.metadata?.cart_id) return 'ignored';
  switch (intent.status) {
    case 'succeeded':
    case 'requires_capture':
      return bookIntent(deps, attempt, intent.id);
    case 'processing':
      if (attempt.status === 'pending' && attempt.gateway_ref !== intent.id) {
        await deps.db
          .updateTable('payment')
          .set({ gateway_ref: intent.id, updated_at: deps.now() })
          .where('id', '=', attempt.id)
          .where('status', '=', 'pending')
          .execute();
      }
      return 'waiting';
    case 'requires_payment_method':
    case 'canceled':
      // The debit bounced or the payment was given up: the cart goes back to the shopper.
      if (attempt.status !== 'pending') return 'settled';
      await releaseAttempt(deps, attempt, { status: 'failed', ref: intent.id });
      return 'released';
    default:
      return 'waiting';
  }
}

async function bookIntent(deps: Deps, attempt: Payment, ref: string): Promise<WebhookOutcome> {
  if (attempt.status === 'succeeded' || attempt.status === 'refunded') return 'settled';
  if (attempt.status === 'refund_pending') {
    await refundOwed(deps, attempt.id);
    return 'refunded';
  }
  if (attempt.status === 'requires_action' || attempt.status === 'failed') {
    const resumed = await resume(deps, attempt, ref);
    if (resumed !== 'resumed') return resumed;
  }
  const outcome = await deps.db.transaction().execute((trx) => bookAttempt(trx, deps, attempt.id, { ref, accessTokenHash: null }));
  if (outcome.kind === 'booked') {
    // The order stands whatever the mail does.
    await sendGiftMails(deps, outcome.orderId).catch(() => undefined);
    if (attempt.send_email)
      await sendOrderMail(deps, outcome.orderId, outcome.edit ? 'order_update' : 'order_tickets').catch(() => undefined);
    return 'booked';
  }
  if (outcome.kind === 'refund_owed') {
    await refundOwed(deps, attempt.id);
    return 'refunded';
  }
  return 'settled';
}

/**
 * The payment succeeded while the attempt was back with the shopper (3-D Secure confirmed, tab closed): claim the
 * cart again for exactly this attempt. A hold that expired meanwhile takes its capacity again under the guard; when
 * the places are gone (or the cart was paid another way) the money is given back, never oversold.
 */
async function resume(deps: Deps, attempt: Payment, ref: string): Promise<'resumed' | WebhookOutcome> {
  const cart = await deps.db.selectFrom('cart').selectAll().where('id', '=', attempt.cart_id).executeTakeFirstOrThrow();
  try {
    await deps.db.transaction().execute((trx) =>
      claim(trx, deps, {
        cartId: cart.id,
        sellerId: cart.seller_id,
        amount: attempt.amount,
        gateway: gatewayFor(deps.config, 'stripe'),
        identityId: attempt.order_identity_id ?? cart.identity_id,
        sendEmail: attempt.send_email,
        source: ref,
        resumeAttemptId: attempt.id,
        autoRenew: cart.auto_renew === true,
        gifteeIdentityId: cart.giftee_identity_id ?? null,
      }),
    );
    return 'resumed';
  } catch (err) {
    if (err instanceof DomainError && err.code === 'cart_checkout_in_progress') {
      // The browser's confirmed retry claimed it first: if it continues this attempt, the booking's lock decides.
      const now = await deps.db.selectFrom('payment').select('status').where('id', '=', attempt.id).executeTakeFirstOrThrow();
      if (now.status === 'pending') return 'resumed';
      // Another attempt of the cart is under way: answer 500 so Stripe asks again later.
      throw err;
    }
    if (!(err instanceof DomainError)) throw err;
    // Sold out, the cart booked by another payment, the amount no longer due: the money goes back.
    await deps.db
      .updateTable('payment')
      .set({ status: 'refund_pending', gateway_ref: ref, updated_at: deps.now() })
      .where('id', '=', attempt.id)
      .where('status', 'in', ['requires_action', 'failed'])
      .execute();
    await refundOwed(deps, attempt.id);
    return 'refunded';
  }
}
