import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { modCovers } from '../../../src/domain/promo';
import type { BlockingRuleRow } from '../../../src/contract/cart';

/**
 * Checkout rules that want a code (spec section 6: block reason code_required; issue 13). A cart mod marked
 * `blocking_checkout` holds up every cart with tickets it covers until the cart carries one of its own codes, or a code
 * of one of its `activating_code_groups`; the checkout refuses such a cart (rule_blocks_checkout) and the storefront
 * shows the blocked-cart code form.
 */
export async function blockingRules(
  db: Kysely<Database>,
  sellerId: string,
  cartId: string,
  tickets: Array<{ ticket_type_id: string; handler: string }>,
): Promise<BlockingRuleRow[]> {
  if (tickets.length === 0) return [];
  const mods = await db
    .selectFrom('cart_mod')
    .select(['id', 'name', 'ticket_type_ids', 'activating_code_groups'])
    .where('seller_id', '=', sellerId)
    .where('blocking_checkout', '=', true)
    .execute();
  const blocking = mods.filter((m) => tickets.some((t) => modCovers({ ticket_type_ids: m.ticket_type_ids ?? [] }, t)));
  if (blocking.length === 0) return [];
  const held = await db
    .selectFrom('cart_code')
    .innerJoin('promo_code', 'promo_code.id', 'cart_code.promo_code_id')
    .select(['promo_code.cart_mod_id as cart_mod_id', 'promo_code.code_group as code_group'])
    .where('cart_code.cart_id', '=', cartId)
    .execute();
  return blocking
    .filter(
      (m) =>
        !held.some((h) => h.cart_mod_id === m.id || (h.code_group !== null && (m.activating_code_groups ?? []).includes(h.code_group))),
    )
    .map((m) => ({ cart_mod_id: m.id, name: m.name, block_reason: 'code_required' as const }));
}
