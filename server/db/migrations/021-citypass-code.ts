import { sql, type Kysely } from 'kysely';

/**
 * CityPASS (issue 18): a CityPASS ticket carries the code it was reserved with, and a code is taken once per seller
 * among live tickets, as a seat is per session: the INSERT of a second live ticket with the code fails whatever the
 * interleaving, and a ticket leaving those states (removed, hold expired, order cancelled) frees its code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ticket').addColumn('citypass_code', 'text').execute();
  await sql`create unique index ticket_citypass_code_uq on ticket (seller_id, citypass_code)
    where citypass_code is not null and state in ('in_cart','held','booked','redeemed')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index ticket_citypass_code_uq`.execute(db);
  await db.schema.alterTable('ticket').dropColumn('citypass_code').execute();
}
