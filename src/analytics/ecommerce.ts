import type { CartRow } from '../contract/cart';
import { addedItems, ecommerceItems, itemsValue, type EcommerceItem } from '../domain/ecommerce-items';
import type { TrackReport } from './track';

/** A GA4 ecommerce event as it goes into window.dataLayer. */
export interface EcommerceEvent {
  event: string;
  ecommerce: Record<string, unknown> & { items: Array<Partial<EcommerceItem> & { item_id: string; item_name: string }> };
}

type Items = Pick<CartRow, 'items'> | null | undefined;
const rowsOf = (cart: unknown) => (cart as Items)?.items ?? [];

/**
 * A report of src/analytics/track.ts as the GA4 ecommerce event of the same name. Items are ticket types priced as spec
 * section 9 says (src/domain/ecommerce-items.ts). Only what was bought and for how much goes in: never the buyer's
 * name, e-mail, address, or an admit name. A report with no items (a removal that removed nothing) is no event.
 */
export function toEcommerceEvent(report: TrackReport, currency: string): EcommerceEvent | null {
  const priced = (event: string, items: EcommerceItem[], extra: Record<string, unknown> = {}): EcommerceEvent | null =>
    items.length ? { event, ecommerce: { currency, value: itemsValue(items), ...extra, items } } : null;
  switch (report.name) {
    case 'view_item_list':
      return {
        event: 'view_item_list',
        ecommerce: {
          item_list_id: 'events',
          items: report.events.map((e, index) => ({ item_id: e.id, item_name: e.name, item_category: e.category, index })),
        },
      };
    case 'view_item':
      return {
        event: 'view_item',
        ecommerce: { currency, items: [{ item_id: report.event.id, item_name: report.event.name, item_category: report.event.category }] },
      };
    case 'add_to_cart':
      return priced('add_to_cart', addedItems(rowsOf(report.before), rowsOf(report.after)));
    case 'remove_from_cart':
      return priced('remove_from_cart', addedItems(rowsOf(report.after), rowsOf(report.before)));
    case 'begin_checkout':
      return priced('begin_checkout', ecommerceItems(rowsOf(report.cart)));
    case 'add_payment_info':
      return priced('add_payment_info', ecommerceItems(rowsOf(report.cart)), { payment_type: report.paymentType ?? 'card' });
    case 'purchase':
      return priced('purchase', ecommerceItems(rowsOf(report.cart)), { transaction_id: (report.orderIds ?? []).join(',') });
  }
}
