import type { Deps } from '../deps';
import { claimJobs, runClaimedJob, type JobHandler, type JobKind } from '../services/job-queue';
import { sendMailJob } from '../services/mail';
import { orderMailsJob } from '../services/checkout/follow-up';
import { stripeIntentJob } from '../services/checkout/stripe-events';
import { repeat } from './repeat';

/** What each kind of durable job does (server/services/job-queue.ts). */
export const JOB_HANDLERS: Record<JobKind, JobHandler> = {
  mail_send: sendMailJob,
  order_mails: orderMailsJob,
  stripe_intent: stripeIntentJob,
};

/**
 * One round: claims due jobs a batch at a time and runs them until none is due (or `max` ran). Any number of processes
 * run rounds side by side; the claim's `skip locked` gives each its own jobs. Answers how many ran and how many failed.
 */
export async function runDueJobs(deps: Deps, opts: { batch?: number; max?: number } = {}): Promise<{ ran: number; failed: number }> {
  const batch = opts.batch ?? 10;
  const max = opts.max ?? 500;
  let ran = 0;
  let failed = 0;
  while (ran < max) {
    const jobs = await claimJobs(deps, { limit: Math.min(batch, max - ran) });
    for (const job of jobs) {
      if (!(await runClaimedJob(deps, job, JOB_HANDLERS[job.kind as JobKind]))) failed += 1;
      ran += 1;
    }
    if (jobs.length < batch) break;
  }
  return { ran, failed };
}

/** Looks for due jobs every `intervalMs` (JOBS_POLL_MS); returns the function that stops it. */
export function startJobRunner(deps: Deps, intervalMs = deps.config.jobsPollMs): () => void {
  return repeat('job runner', intervalMs, () => runDueJobs(deps), { atStart: true });
}
