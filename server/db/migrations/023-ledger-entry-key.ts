import { sql, type Kysely } from 'kysely';

/**
 * Gift-card payments (issue 13): every debit and credit of a card is one ledger entry written with its payment
 * attempt's idempotency key, in the same statement as the balance change. A key repeated (a retried refund, the
 * reconciler asking what became of a debit) finds the entry instead of moving the money twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ledger_entry').addColumn('idempotency_key', 'text').execute();
  await sql`create unique index ledger_entry_key_uq on ledger_entry (idempotency_key) where idempotency_key is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists ledger_entry_key_uq`.execute(db);
  await db.schema.alterTable('ledger_entry').dropColumn('idempotency_key').execute();
}
