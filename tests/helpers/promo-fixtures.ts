import type { Db } from '../../server/db';
import type { CartFixture } from './cart-fixtures';

/** A cart mod with one code on the cart fixture's seller (issue 13's promo tests). */
export async function addPromo(
  db: Db,
  fx: Pick<CartFixture, 'sellerId'>,
  opts: {
    code: string;
    type: 'percent' | 'amount' | 'price';
    value: number;
    ticketTypes?: string[];
    maxUsage?: number;
    validFrom?: Date;
    validTo?: Date;
    advertise?: boolean;
  },
) {
  const mod = await db
    .insertInto('cart_mod')
    .values({
      seller_id: fx.sellerId,
      key: `mod-${opts.code.toLowerCase()}`,
      name: `Mod ${opts.code}`,
      discount_type: opts.type,
      discount_value: opts.value,
      ticket_type_ids: JSON.stringify(opts.ticketTypes ?? []),
      activating_code_groups: '[]',
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const code = await db
    .insertInto('promo_code')
    .values({
      seller_id: fx.sellerId,
      code: opts.code,
      cart_mod_id: mod.id,
      max_usage: opts.maxUsage ?? -1,
      valid_from: opts.validFrom ?? null,
      valid_to: opts.validTo ?? null,
      advertise: opts.advertise ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { modId: mod.id, codeId: code.id };
}

export async function usedOf(db: Db, codeId: string) {
  return (await db.selectFrom('promo_code').select('used').where('id', '=', codeId).executeTakeFirstOrThrow()).used;
}
