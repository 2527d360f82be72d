import type { TicketTypeRow } from '../contract/catalogue';
import { parseMoney } from './money';
import { outsideFees, ticketPrice } from './cart-rules';

/**
 * The running subtotal of a selection (issue 16): each type's price and outside fees worked out by the same rules the
 * server prices a reservation with (cart-rules ticketPrice and outsideFees, from the type's wire row, which already
 * carries the session's price increase; a member's ticket at its benefit's price, as membership/reserve.ts prices it),
 * so the figure before 'Add to cart' is the cart's, with what member prices and discounts take off the list price.
 */
export interface SubtotalLine {
  typeId: string;
  name: string;
  count: number;
  /** minor units, for all `count` tickets */
  value: number;
  fees: number;
  /** what member prices and discounts take off the list price, for all `count` tickets */
  saving: number;
}

export interface Subtotal {
  lines: SubtotalLine[];
  value: number;
  fees: number;
  saving: number;
  total: number;
}

/**
 * One ticket of a wire type: the value charged, its fees and what comes off the list price (minor units); null when a
 * flexible amount is missing. `memberPrice`: the price of the member's benefit for a members-only type (spec section 6).
 */
export function unitPrice(
  type: TicketTypeRow,
  flexibleAmount: number | null = null,
  memberPrice: number | null = null,
): { value: number; fees: number; saving: number } | null {
  const priced = {
    price: parseMoney(type.currency_amount) ?? 0,
    price_min: parseMoney(type.currency_amount_min),
    price_max: parseMoney(type.currency_amount_max),
    discounted_price: parseMoney(type.discounted_amount),
  };
  const flexible = priced.price_min !== null && priced.price_max !== null;
  if (flexible && flexibleAmount === null) return null;
  const price = ticketPrice(priced, 0, flexible ? flexibleAmount! : undefined);
  const adjusted_value = memberPrice ?? price.adjusted_value;
  const fees = outsideFees(
    adjusted_value,
    type.outside_fees.map((f) => ({
      name: f.name,
      fixed: parseMoney(f.fixed ?? f.fee) ?? 0,
      percent: f.fixed === undefined ? 0 : (f.percent ?? 0),
    })),
  );
  return { value: adjusted_value, fees: fees.fixed + fees.percent, saving: Math.max(0, price.face_value - adjusted_value) };
}

/** The subtotal of the chosen counts; types with a missing flexible amount are left out until it is valid. */
export function selectionSubtotal(
  chosen: ReadonlyArray<{ type: TicketTypeRow; count: number; flexibleAmount?: number | null; memberPrice?: number | null }>,
): Subtotal {
  const lines: SubtotalLine[] = [];
  for (const { type, count, flexibleAmount, memberPrice } of chosen) {
    if (count <= 0) continue;
    const unit = unitPrice(type, flexibleAmount ?? null, memberPrice ?? null);
    if (!unit) continue;
    lines.push({
      typeId: type.id,
      name: type.name,
      count,
      value: unit.value * count,
      fees: unit.fees * count,
      saving: unit.saving * count,
    });
  }
  const sum = (key: 'value' | 'fees' | 'saving') => lines.reduce((s, l) => s + l[key], 0);
  const value = sum('value');
  const fees = sum('fees');
  return { lines, value, fees, saving: sum('saving'), total: value + fees };
}

/** The member price of a type for a member's benefits: a members-only type named by a benefit with a price, else null. */
export function memberPriceOf(
  type: Pick<TicketTypeRow, 'id' | 'member_only'>,
  group: { hidden_type: string },
  benefits: ReadonlyArray<{ ticket_type_id: string; price?: number | null }> | null | undefined,
): number | null {
  if (!benefits || !(type.member_only || group.hidden_type === 'public_member_only')) return null;
  const price = benefits.find((b) => b.ticket_type_id === type.id)?.price;
  return typeof price === 'number' ? price : null;
}
