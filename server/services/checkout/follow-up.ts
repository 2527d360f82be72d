import type { Deps } from '../../deps';
import { enqueueJob, runJobNow, type JobHandler } from '../job-queue';
import { sendOrderMail } from '../order-mail';
import { sendGiftMails } from '../membership/mail';
import { bookAttempt, type BookOutcome } from './book';

/**
 * Books a charged attempt and, in the same transaction, owes its mails as a durable job (`order_mails`): the checkout,
 * the Stripe webhook and the reconciler all book through here, so an order never stands without its mails owed, even
 * when the process stops right after the commit (another runs the job). Then the job is tried at once, after the commit.
 */
export async function bookWithMails(
  deps: Deps,
  attempt: { id: string; send_email: boolean },
  charge: { ref: string; accessTokenHash: string | null },
): Promise<BookOutcome> {
  const booked = await deps.db.transaction().execute(async (trx) => {
    const outcome = await bookAttempt(trx, deps, attempt.id, charge);
    if (outcome.kind !== 'booked') return { outcome, jobId: null };
    const jobId = await enqueueJob(trx, deps, 'order_mails', {
      order_id: outcome.orderId,
      send_email: attempt.send_email,
      // An edited order's checkout (issue 17) sends the update, not the tickets anew.
      mail_kind: outcome.edit ? 'order_update' : 'order_tickets',
    });
    return { outcome, jobId };
  });
  // The order stands whatever the mail does: a failure is the job's to retry.
  if (booked.jobId) await runJobNow(deps, booked.jobId, orderMailsJob).catch(() => undefined);
  return booked.outcome;
}

/** The `order_mails` job: a gift of membership's code to its giftee (always), the receipt when the buyer asked for it. */
export const orderMailsJob: JobHandler = async (deps, payload) => {
  const orderId = payload.order_id;
  if (typeof orderId !== 'string') throw new Error('order_mails job without an order_id');
  // Each gift code is mailed once (sendGiftMails looks for its outbox row), so a retry does not send it twice.
  await sendGiftMails(deps, orderId);
  if (payload.send_email === true)
    await sendOrderMail(deps, orderId, payload.mail_kind === 'order_update' ? 'order_update' : 'order_tickets');
};
