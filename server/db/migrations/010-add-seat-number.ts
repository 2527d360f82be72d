import { sql, type Kysely } from 'kysely';

/**
 * A seat's number within its row, as the catalogue numbers it: accessible names and tickets say
 * 'Orchestra row C seat 7', and the number was only inside the seat's name ('ORCH-C7'). Seats loaded before
 * this migration take the digits their name ends with.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('seat').addColumn('number', 'text').execute();
  await sql`update seat set number = substring(name from '([0-9]+)$')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('seat').dropColumn('number').execute();
}
