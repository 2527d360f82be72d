import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, openAnotherHandle } from '../helpers/db';
import { buildTestApp, testClock, testDeps } from '../helpers/app';
import { insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { guestCartToPay } from '../helpers/guest-checkout';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink';
import { createScratchDatabase, startServer, type ServerProcess } from '../helpers/server-process';
import { openDatabase, type Db, type DbHandle } from '../../server/db';
import type { Deps } from '../../server/deps';
import { runDueJobs } from '../../server/jobs/runner';
import { enqueueJob, runJobNow } from '../../server/services/job-queue';
import { queueMail, sendMailJob } from '../../server/services/mail';

/**
 * The durable job table (DESIGN.md sections 2 and 6, issue 14) with a real SMTP server (tests/helpers/smtp-sink.ts):
 * a ticket e-mail sent while the mail server is down for a minute arrives once it is back; runners claiming at once
 * (two connection pools here, two server processes on PostgreSQL below) never send one job twice, and without the
 * claim's row locks (the test-only unguarded claim) they do; no transaction is open while the SMTP server answers.
 */
const messageIdOf = (outboxId: string) => `<${outboxId}@localhost>`;

/** Outbox rows and their send jobs written as queueMail writes them, but not tried at once: only runners send them. */
async function owedMails(db: Db, deps: Pick<Deps, 'now'>, n: number, tag: string): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const row = await trx
        .insertInto('mail_outbox')
        .values({ seller_id: null, kind: 'test', to_address: `r${i}@example.org`, subject: `${tag} ${i}`, text_body: 'x', meta: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await enqueueJob(trx, deps, 'mail_send', { outbox_id: row.id });
      ids.push(row.id);
    }
    return ids;
  });
}

describeEachDatabase('durable jobs: mail through SMTP', (ctx) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let fx: CartFixture;
  let deps: Deps;
  const clock = testClock();
  const db = () => ctx().db;
  const jobOf = (outboxId: string) =>
    db()
      .selectFrom('job')
      .selectAll()
      .where(sql<string>`payload->>'outbox_id'`, '=', outboxId)
      .executeTakeFirst();
  const received = (outboxId: string) => sink.messages.filter((m) => m.messageId === messageIdOf(outboxId));

  beforeAll(async () => {
    sink = await startSmtpSink();
    fx = await insertCartFixture(db(), { now: clock.now() });
    deps = testDeps(ctx(), clock.now);
    deps.config = { ...deps.config, smtpUrl: sink.url(), publicUrl: 'http://localhost:3000' };
    app = await buildTestApp(deps);
  });
  afterAll(async () => {
    await app?.close();
    await sink?.stop();
  });

  it('sends at once when the SMTP server is up; without SMTP_URL keeps the mail in the outbox and owes no job', async () => {
    const id = await queueMail(deps, { sellerId: null, kind: 'test', to: 'up@example.org', subject: 'Up', text: 'hello' });
    expect(received(id)).toHaveLength(1);
    expect(received(id)[0].to).toEqual(['up@example.org']);
    expect(await jobOf(id)).toBeUndefined();

    const quiet = { ...deps, config: { ...deps.config, smtpUrl: undefined } };
    const kept = await queueMail(quiet, { sellerId: null, kind: 'test', to: 'kept@example.org', subject: 'Kept', text: 'hello' });
    const row = await db().selectFrom('mail_outbox').selectAll().where('id', '=', kept).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ sent_at: null, attempts: 0 });
    expect(await jobOf(kept)).toBeUndefined();
    expect(received(kept)).toHaveLength(0);
  });

  it('loses no ticket e-mail while the SMTP server is down for a minute: it arrives once the server is back', async () => {
    await sink.stop();
    const g = await guestCartToPay(app, db(), fx, clock.now(), 'outage@example.org');
    const paid = await g.pay();
    // The order stands whatever the mail does.
    expect(paid.status).toBe(200);
    const mail = await db()
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', 'outage@example.org')
      .where('kind', '=', 'order_tickets')
      .executeTakeFirstOrThrow();
    expect(mail.sent_at).toBeNull();
    expect(mail.last_error).toMatch(/ECONNREFUSED/);
    const first = await jobOf(mail.id);
    expect(first).toMatchObject({ kind: 'mail_send', state: 'queued', attempts: 1 });
    expect(first!.run_at.getTime()).toBeGreaterThan(clock.now().getTime());

    // A minute of outage: the runners look every 10 s and the job fails each time it is due, waiting longer each time.
    for (let s = 0; s < 60; s += 10) {
      clock.advance(10);
      await runDueJobs(deps);
    }
    const during = await jobOf(mail.id);
    expect(during!.attempts).toBeGreaterThanOrEqual(3);
    expect(during!.state).toBe('queued');
    expect(received(mail.id)).toHaveLength(0);

    await sink.start();
    // Nothing goes before its backoff is over; then the next round sends it.
    clock.set(new Date(during!.run_at.getTime() - 1000));
    await runDueJobs(deps);
    expect(received(mail.id)).toHaveLength(0);
    clock.advance(1);
    await runDueJobs(deps);
    const [arrived] = received(mail.id);
    expect(arrived).toMatchObject({ to: ['outage@example.org'], subject: mail.subject });
    expect(arrived.raw).toContain('Content-ID: <qr-');
    const after = await db().selectFrom('mail_outbox').selectAll().where('id', '=', mail.id).executeTakeFirstOrThrow();
    expect(after.sent_at).not.toBeNull();
    expect(after.attempts).toBe(during!.attempts + 1);
    expect(await jobOf(mail.id)).toBeUndefined();
    // Later rounds send nothing again.
    clock.advance(3600);
    await runDueJobs(deps);
    expect(received(mail.id)).toHaveLength(1);
  });

  it('gives a job up as dead after its last attempt, with the error kept', async () => {
    await sink.stop();
    try {
      const [id] = await owedMails(db(), deps, 1, 'Dead');
      await db()
        .updateTable('job')
        .set({ max_attempts: 2 })
        .where(sql<string>`payload->>'outbox_id'`, '=', id)
        .execute();
      await runDueJobs(deps);
      clock.advance(3600);
      await runDueJobs(deps);
      expect(await jobOf(id)).toMatchObject({ state: 'dead', attempts: 2, last_error: expect.stringMatching(/ECONNREFUSED/) });
      clock.advance(3600);
      await runDueJobs(deps);
      expect((await jobOf(id))!.attempts).toBe(2);
    } finally {
      await sink.start();
    }
  });

  it('holds no transaction while the SMTP server answers', async () => {
    sink.delayMs = 1500;
    try {
      const [id] = await owedMails(db(), deps, 1, 'Slow');
      const job = (await jobOf(id))!;
      const sending = runJobNow(deps, job.id, sendMailJob);
      await new Promise((r) => setTimeout(r, 300));
      // PGlite has one session: a transaction left open across the SMTP call would hold this write until it ends.
      const started = performance.now();
      await db()
        .transaction()
        .execute((trx) => trx.updateTable('seller').set({ name: 'Museum' }).where('id', '=', fx.sellerId).execute());
      expect(performance.now() - started).toBeLessThan(1000);
      expect(received(id)).toHaveLength(0);
      expect(await sending).toBe(true);
      expect(received(id)).toHaveLength(1);
    } finally {
      sink.delayMs = 0;
    }
  });

  async function race(unguarded: boolean, tag: string): Promise<Map<string, number>> {
    const ids = await owedMails(db(), deps, 30, tag);
    const second: DbHandle = await openAnotherHandle(ctx());
    try {
      const a = { ...deps, config: { ...deps.config, jobClaimUnguardedGapMs: unguarded ? 300 : undefined } };
      const b = { ...a, db: second.db };
      // Both pools connected before the start, so both runners look for due jobs at the same moment.
      await Promise.all([sql`select 1`.execute(a.db), sql`select 1`.execute(b.db)]);
      await Promise.all([runDueJobs(a), runDueJobs(b)]);
    } finally {
      await second.close();
    }
    return new Map(ids.map((id) => [id, received(id).length]));
  }

  it('two runners claiming at once send each job once; without the row locks (the control) they send some twice', async () => {
    sink.delayMs = 20;
    try {
      const guarded = await race(false, 'Guarded');
      expect([...guarded.values()]).toEqual(new Array(30).fill(1));
      const control = await race(true, 'Unguarded');
      expect([...control.values()].every((n) => n >= 1)).toBe(true);
      expect([...control.values()].some((n) => n > 1)).toBe(true);
    } finally {
      sink.delayMs = 0;
    }
  });
});

const ADMIN_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!ADMIN_URL)('durable jobs: two server processes on one PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let sink: SmtpSink;
  let handle: DbHandle;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase(ADMIN_URL!, 'jobs');
    sink = await startSmtpSink({ delayMs: 20 });
    // One after the other: the first migrates the new database and loads the demo seller.
    for (const name of ['proc-a', 'proc-b']) {
      servers.push(await startServer({ DATABASE_URL: scratch.url, SMTP_URL: sink.url(name), JOBS_POLL_MS: '100' }));
    }
    handle = await openDatabase({ databaseUrl: scratch.url });
  }, 180_000);
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await handle?.close();
    await sink?.stop();
    await scratch?.drop();
  }, 60_000);

  it('never send one job twice, and both take part', async () => {
    const ids = await owedMails(handle.db, { now: () => new Date() }, 60, 'Process');
    const deadline = Date.now() + 90_000;
    const mine = () => sink.messages.filter((m) => ids.some((id) => m.messageId === messageIdOf(id)));
    while (Date.now() < deadline) {
      const left = await handle.db.selectFrom('job').select('id').execute();
      if (left.length === 0 && mine().length >= ids.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // A moment more, for a second send of any job to show.
    await new Promise((r) => setTimeout(r, 1000));
    const counts = ids.map((id) => sink.messages.filter((m) => m.messageId === messageIdOf(id)).length);
    expect(counts).toEqual(new Array(60).fill(1));
    expect(new Set(mine().map((m) => m.client))).toEqual(new Set(['proc-a', 'proc-b']));
  }, 120_000);
});
