import type { CartItemRow } from '../contract/cart';
import { decimalToMinor, toDecimal } from './pricing';

/** One GA4 ecommerce item: a ticket type of the cart. Never a name, e-mail or address of a person. */
export interface EcommerceItem {
  item_id: string;
  item_name: string;
  item_category: string;
  item_variant: string;
  price: number;
  discount: number;
  quantity: number;
}

type ItemRow = Pick<CartItemRow, 'name' | 'category' | 'types'>;

/** Minor units as the decimal number GA4 wants (1250 -> 12.5). */
const amount = (minor: number): number => Number(toDecimal(Math.round(minor)));

/**
 * Spec section 9: the ecommerce tracking price of a ticket type is the average adjusted value of its tickets, and
 * its discount the face value minus the adjusted value (on average too). A type bought for several sessions or
 * events is one item with all its tickets. Items keep the order in which their types first appear.
 */
export function ecommerceItems(rows: ItemRow[]): EcommerceItem[] {
  const byType = new Map<string, { name: string; category: string; variant: string; count: number; adjusted: number; face: number }>();
  for (const row of rows) {
    for (const type of row.types) {
      const adjusted = decimalToMinor(type.totalPrice);
      // Without the face value in the answer, the promo discount is what separates face from adjusted.
      const face = type.totalFaceValue !== undefined ? decimalToMinor(type.totalFaceValue) : adjusted + decimalToMinor(type.discount);
      const entry = byType.get(type.ticket_type_id);
      if (entry) {
        entry.count += type.ticketCount;
        entry.adjusted += adjusted;
        entry.face += face;
      } else {
        byType.set(type.ticket_type_id, {
          name: row.name,
          category: row.category,
          variant: type.ticket_type_name,
          count: type.ticketCount,
          adjusted,
          face,
        });
      }
    }
  }
  return [...byType.entries()]
    .filter(([, e]) => e.count > 0)
    .map(([id, e]) => ({
      item_id: id,
      item_name: e.name,
      item_category: e.category,
      item_variant: e.variant,
      price: amount(e.adjusted / e.count),
      discount: amount(Math.max(0, e.face - e.adjusted) / e.count),
      quantity: e.count,
    }));
}

/** What changed between two carts, per ticket type: the tickets added (or, swapped, removed), priced as above. */
export function addedItems(before: ItemRow[], after: ItemRow[]): EcommerceItem[] {
  const had = new Map(ecommerceItems(before).map((i) => [i.item_id, i.quantity]));
  return ecommerceItems(after)
    .map((i) => ({ ...i, quantity: i.quantity - (had.get(i.item_id) ?? 0) }))
    .filter((i) => i.quantity > 0);
}

/** The value of a list of items: price times quantity, summed (GA4's `value`). */
export function itemsValue(items: EcommerceItem[]): number {
  return amount(items.reduce((sum, i) => sum + Math.round(i.price * 100) * i.quantity, 0));
}
