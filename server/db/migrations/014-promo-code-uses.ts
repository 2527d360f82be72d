import { sql, type Kysely } from 'kysely';

/**
 * Promo code uses (issue 13). A code's use is taken, with a guarded `used + 1`, in the transaction that puts the code
 * on a cart; `cart_code.use_held` says the cart still holds that use, so an expired or cancelled cart gives it back
 * exactly once (and takes it again, guarded, if a late payment revives the cart). Each ticket keeps the discount the
 * cart's codes give it (`cartmod_amount`, minor units; `adjusted_value` is the price after it) and the cart mod that
 * gave it, so totals show `total_cartmod_amount` and an order keeps what it was charged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('cart_code')
    .addColumn('use_held', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema
    .alterTable('ticket')
    .addColumn('cartmod_amount', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`cartmod_amount >= 0`),
    )
    .addColumn('cart_mod_id', 'uuid', (c) => c.references('cart_mod.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ticket').dropColumn('cart_mod_id').dropColumn('cartmod_amount').execute();
  await db.schema.alterTable('cart_code').dropColumn('use_held').execute();
}
