import type Stripe from 'stripe';
import type { Deps } from '../../deps';
import type { Payment } from '../../db/types';
import { DomainError } from '../errors';
import { gatewayFor, stripeClient } from '../payments';
import { claim } from './claim';
import { refundOwed, releaseAttempt } from './book';
import { bookWithMails } from './follow-up';
import { enqueueJob, runJobNow, type JobHandler } from '../job-queue';

/**
 * Stripe's webhook (POST /api/stripe/webhook, DESIGN.md section 5): fulfilment never depends on the browser coming
 * back. The event only says which intent to look at; what the intent is now is read from Stripe (outside any
 * transaction), so events arriving late, twice or out of order all lead to the same state, and the attempt's row
 * lock (bookAttempt) decides between the webhook and the browser's own checkout, so the cart is booked once.
 */
export type WebhookOutcome = 'duplicate' | 'ignored' | 'booked' | 'released' | 'refunded' | 'waiting' | 'settled' | 'queued';

const HANDLED = new Set(['payment_intent.succeeded', 'payment_intent.payment_failed', 'payment_intent.processing']);

/**
 * Records the event once (its id is the key) and, in the same transaction, the durable job that settles its intent
 * (`stripe_intent`); then runs the job at once. Once recorded the event is ours: a settling that fails (Stripe
 * unreachable for a moment, a database hiccup) is retried by the job runners with backoff, in any process, so the
 * webhook answers 2xx and Stripe need not send it again.
 */
export async function handleStripeEvent(deps: Deps, event: Stripe.Event): Promise<WebhookOutcome> {
  const intentId = HANDLED.has(event.type) ? (event.data.object as Stripe.PaymentIntent).id : null;
  const recorded = await deps.db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('webhook_event')
      .values({ id: event.id, provider: 'stripe' })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!fresh) return null;
    return { jobId: intentId ? await enqueueJob(trx, deps, 'stripe_intent', { intent_id: intentId, event_id: event.id }) : null };
  });
  if (!recorded) return 'duplicate';
  if (!recorded.jobId) return 'ignored';
  let outcome: WebhookOutcome = 'queued';
  await runJobNow(deps, recorded.jobId, async (d, payload) => {
    outcome = await settleIntent(d, String(payload.intent_id));
  });
  return outcome;
}

/** The `stripe_intent` job: settles the attempt of one intent with what Stripe says of it now. */
export const stripeIntentJob: JobHandler = async (deps, payload) => {
  if (typeof payload.intent_id !== 'string') throw new Error('stripe_intent job without an intent_id');
  await settleIntent(deps, payload.intent_id);
};

/** Brings the attempt that made this intent in line with what Stripe says of the intent now. */
export async function settleIntent(deps: Deps, intentId: string): Promise<WebhookOutcome> {
  const intent = await (await stripeClient(deps.config)).paymentIntents.retrieve(intentId);
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
  const outcome = await bookWithMails(deps, attempt, { ref, accessTokenHash: null });
  if (outcome.kind === 'booked') return 'booked';
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
