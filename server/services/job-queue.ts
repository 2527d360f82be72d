import { sql, type Kysely } from 'kysely';
import type { Deps } from '../deps';
import type { Database, Job } from '../db/types';

/**
 * The durable job table (migration 045; DESIGN.md sections 2 and 6). Work that must not be lost is a row, written in
 * the transaction that makes it owed (the outbox row of a mail, the booking of an order), so a process that stops
 * right after the commit loses nothing: any process runs it later.
 *
 * Claiming is one statement: `update ... where id in (select ... for update skip locked) returning`, so processes
 * claiming at once take disjoint rows and never wait for each other. A claim does not hold a transaction while the job
 * runs (a mail server or Stripe may be slow): it moves the row's `run_at` a lease ahead and counts the attempt; the
 * attempt count is the claim's token, so a runner whose lease ran out (and whose job another process took) cannot
 * finish or reschedule the newer claim. A job that fails waits an exponential backoff; after `max_attempts` it is kept
 * as `dead` with its last error.
 */
export type JobKind = 'mail_send' | 'order_mails' | 'stripe_intent';

/** How long a claimed job is its runner's before another process may take it (longer than any job's own timeouts). */
export const JOB_LEASE_MS = 5 * 60_000;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_CAP_MS = 30 * 60_000;
/** 20 attempts: the backoff doubles from 5 s to its 30-minute cap, about 6 hours of retries in all. */
const MAX_ATTEMPTS = 20;

/** The wait before the next try after `attempts` failed ones: 5 s, 10 s, 20 s, ... up to 30 minutes. */
export const backoffMs = (attempts: number) => Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_CAP_MS);

export type JobHandler = (deps: Deps, payload: Record<string, unknown>) => Promise<void>;

/** Writes a job due now; pass the transaction that makes the work owed, so the job exists exactly when the work does. */
export async function enqueueJob(
  db: Kysely<Database>,
  deps: Pick<Deps, 'now'>,
  kind: JobKind,
  payload: Record<string, unknown>,
  opts: { maxAttempts?: number } = {},
): Promise<string> {
  const now = deps.now();
  const row = await db
    .insertInto('job')
    .values({
      kind,
      payload: JSON.stringify(payload),
      run_at: now,
      created_at: now,
      updated_at: now,
      max_attempts: opts.maxAttempts ?? MAX_ATTEMPTS,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Claims up to `limit` due jobs (or the one of `id`, when it is due and nobody holds it) for this runner.
 * `deps.config.jobClaimUnguardedGapMs` (tests only) reads the due rows first and claims them that long after, without
 * the row locks: the control that shows two runners then take the same job.
 */
export async function claimJobs(deps: Deps, opts: { limit?: number; id?: string; kinds?: JobKind[] } = {}): Promise<Job[]> {
  const now = deps.now();
  const leaseEnd = new Date(now.getTime() + JOB_LEASE_MS);
  const due = () => {
    let q = deps.db
      .selectFrom('job')
      .select('id')
      .where('state', '=', 'queued')
      .where('run_at', '<=', now)
      .orderBy('run_at')
      .limit(opts.limit ?? 10);
    if (opts.id) q = q.where('id', '=', opts.id);
    if (opts.kinds) q = q.where('kind', 'in', opts.kinds);
    return q;
  };
  const claim = (ids: ReturnType<typeof due> | string[]) =>
    deps.db
      .updateTable('job')
      .set((eb) => ({ run_at: leaseEnd, attempts: eb('attempts', '+', 1), updated_at: now }))
      .where('id', 'in', ids)
      .returningAll()
      .execute();
  const gap = deps.config.jobClaimUnguardedGapMs;
  if (gap !== undefined) {
    const ids = (await due().execute()).map((r) => r.id);
    await new Promise((resolve) => setTimeout(resolve, gap));
    return ids.length ? claim(ids) : [];
  }
  return claim(due().forUpdate().skipLocked());
}

/** Records a claimed job's outcome: done (the row goes), or failed (backoff, or dead after its last attempt). */
export async function finishJob(deps: Deps, job: Job, error: unknown | null): Promise<void> {
  const now = deps.now();
  // The attempt count is this claim's token: a newer claim of the same job (our lease ran out) is left alone.
  const mine = deps.db.updateTable('job').where('id', '=', job.id).where('attempts', '=', job.attempts);
  if (error === null) {
    await deps.db.deleteFrom('job').where('id', '=', job.id).where('attempts', '=', job.attempts).execute();
    return;
  }
  const message = String((error as Error)?.message ?? error).slice(0, 2000);
  if (job.attempts >= job.max_attempts) {
    await mine.set({ state: 'dead', last_error: message, updated_at: now }).execute();
    console.error(`job ${job.kind} ${job.id} failed ${job.attempts} times and is given up: ${message}`);
    return;
  }
  await mine.set({ run_at: new Date(now.getTime() + backoffMs(job.attempts)), last_error: message, updated_at: now }).execute();
}

/** Runs one claimed job with its handler and records the outcome; true when it succeeded. */
export async function runClaimedJob(deps: Deps, job: Job, handler: JobHandler | undefined): Promise<boolean> {
  let error: unknown | null = null;
  try {
    if (!handler) throw new Error(`no handler for job kind '${job.kind}'`);
    await handler(deps, (job.payload ?? {}) as Record<string, unknown>);
  } catch (err) {
    error = err ?? new Error('job failed');
  }
  await finishJob(deps, job, error);
  return error === null;
}

/**
 * Runs the job of `id` now, in this process, when nobody else holds it (the request that made the work owed does it
 * at once, so a message goes out without waiting for the next round). A failure is left to the runners' backoff.
 * Answers whether the job ran and succeeded.
 */
export async function runJobNow(deps: Deps, id: string, handler: JobHandler): Promise<boolean> {
  const [job] = await claimJobs(deps, { id, limit: 1 });
  return job ? runClaimedJob(deps, job, handler) : false;
}

/** Jobs not yet done, by state (tests, and a look at the backlog). */
export async function jobBacklog(db: Kysely<Database>): Promise<{ queued: number; dead: number }> {
  const rows = await db
    .selectFrom('job')
    .select(['state', sql<number>`count(*)::int`.as('n')])
    .groupBy('state')
    .execute();
  return { queued: rows.find((r) => r.state === 'queued')?.n ?? 0, dead: rows.find((r) => r.state === 'dead')?.n ?? 0 };
}
