import type { TicketTypeRow } from '../contract/catalogue';
import { parseMoney } from './money';
import { outsideFees, ticketPrice } from './cart-rules';

/**
 * The running subtotal of a selection (issue 16): each type's price and outside fees worked out by the same rules the
 * server prices a reservation with (cart-rules ticketPrice and outsideFees, from the type's wire row, which already
 * carries the session's price increase), so the figure before 'Add to cart' is the cart's.
 */
export interface SubtotalLine {
  typeId: string;
  name: string;
  count: number;
  /** minor units, for all `count` tickets */
  value: number;
  fees: number;
}

export interface Subtotal {
  lines: SubtotalLine[];
  value: number;
  fees: number;
  total: number;
}

/** One ticket of a wire type: the value charged and its fees (minor units); null when a flexible amount is missing. */
export function unitPrice(type: TicketTypeRow, flexibleAmount: number | null = null): { value: number; fees: number } | null {
  const priced = {
    price: parseMoney(type.currency_amount) ?? 0,
    price_min: parseMoney(type.currency_amount_min),
    price_max: parseMoney(type.currency_amount_max),
    discounted_price: parseMoney(type.discounted_amount),
  };
  const flexible = priced.price_min !== null && priced.price_max !== null;
  if (flexible && flexibleAmount === null) return null;
  const { adjusted_value } = ticketPrice(priced, 0, flexible ? flexibleAmount! : undefined);
  const fees = outsideFees(
    adjusted_value,
    type.outside_fees.map((f) => ({
      name: f.name,
      fixed: parseMoney(f.fixed ?? f.fee) ?? 0,
      percent: f.fixed === undefined ? 0 : (f.percent ?? 0),
    })),
  );
  return { value: adjusted_value, fees: fees.fixed + fees.percent };
}

/** The subtotal of the chosen counts; types with a missing flexible amount are left out until it is valid. */
export function selectionSubtotal(chosen: ReadonlyArray<{ type: TicketTypeRow; count: number; flexibleAmount?: number | null }>): Subtotal {
  const lines: SubtotalLine[] = [];
  for (const { type, count, flexibleAmount } of chosen) {
    if (count <= 0) continue;
    const unit = unitPrice(type, flexibleAmount ?? null);
    if (!unit) continue;
    lines.push({ typeId: type.id, name: type.name, count, value: unit.value * count, fees: unit.fees * count });
  }
  const value = lines.reduce((s, l) => s + l.value, 0);
  const fees = lines.reduce((s, l) => s + l.fees, 0);
  return { lines, value, fees, total: value + fees };
}
