import { sql, type Kysely } from 'kysely';

/**
 * Durable jobs (DESIGN.md sections 2 and 6): work that must not be lost (a message to send through SMTP, the order
 * mails after a booking, a Stripe event to settle) is a row here, written in the transaction that makes it owed.
 * Any process claims due rows with `for update skip locked` (server/jobs/queue.ts); a claim moves `run_at` past a
 * lease, so a process that dies mid-job leaves it to another once the lease ends; a failure waits an exponential
 * backoff; a job that fails `max_attempts` times is kept as `dead` for a person to read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(20))
    .addColumn('run_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('job_state_ck', sql`state in ('queued', 'dead')`)
    .execute();
  // The claim's scan: due queued jobs in order.
  await sql`create index job_due_ix on job (run_at) where state = 'queued'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job').execute();
}
