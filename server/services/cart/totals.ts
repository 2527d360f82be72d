/** The cart's totals from its tickets (spec section 9 pricing): shared by the cart answer, the checkout and gift cards. */

/** Priced lines of the totals: each ticket at its price before promo codes (the codes' discounts are the cartmod amount). */
export function linesOf(
  tickets: Array<{ adjusted_value: number; cartmod_amount?: number; fees: number; handler_data: Record<string, any> }>,
) {
  return tickets.map((t) => ({
    adjusted_value: t.adjusted_value + (t.cartmod_amount ?? 0),
    fee_fixed: Number(t.handler_data?.fee_fixed ?? t.fees),
    fee_percent: Number(t.handler_data?.fee_percent ?? 0),
  }));
}

/** What the cart's promo codes take off its tickets, minor units. */
export const cartmodOf = (tickets: Array<{ cartmod_amount?: number }>) => tickets.reduce((s, t) => s + (t.cartmod_amount ?? 0), 0);
