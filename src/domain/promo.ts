/**
 * Promo codes (spec sections 5, 7 and 8; issue 13): the input rule and the discount a cart mod gives one ticket.
 * Shared by the server, which prices carts with it, and the storefront, which checks the field before sending it.
 */

export const PROMO_MIN = 2;
export const PROMO_MAX = 35;

/** The promo field's rule: trimmed, required, 2 to 35 characters. `null` when it passes, else why not. */
export function promoCodeProblem(raw: string): 'required' | 'min' | 'max' | null {
  const code = raw.trim();
  if (code.length === 0) return 'required';
  if (code.length < PROMO_MIN) return 'min';
  if (code.length > PROMO_MAX) return 'max';
  return null;
}

/** Codes from a `code` URL parameter or preloaded state: a comma list, trimmed, empties and repeats (any case) left out. */
export function splitCodes(list: string | null | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of (list ?? '').split(',')) {
    const code = part.trim();
    if (!code || promoCodeProblem(code) || seen.has(code.toLowerCase())) continue;
    seen.add(code.toLowerCase());
    out.push(code);
  }
  return out;
}

export interface CartModRule {
  discount_type: 'percent' | 'amount' | 'price';
  /** whole percent for `percent`; minor units for `amount` (off) and `price` (the new price) */
  discount_value: number;
  /** ticket types it applies to; empty: every ticket that can be discounted */
  ticket_type_ids: string[];
}

/** Ticket handlers no promo code discounts: money that is not a ticket price (gift card value, a donation). */
export const UNDISCOUNTED_HANDLERS = ['ledger', 'donation'];
/** Handlers a mod without a type list leaves alone: a membership is discounted only by a mod that names its level. */
const NAMED_ONLY_HANDLERS = ['membership'];

export function modCovers(mod: Pick<CartModRule, 'ticket_type_ids'>, ticket: { ticket_type_id: string; handler: string }): boolean {
  if (UNDISCOUNTED_HANDLERS.includes(ticket.handler)) return false;
  if (mod.ticket_type_ids.length === 0) return !NAMED_ONLY_HANDLERS.includes(ticket.handler);
  return mod.ticket_type_ids.includes(ticket.ticket_type_id);
}

/** The discount (minor units) a mod gives a ticket priced `base` (minor units): never below 0, never above the price. */
export function modDiscount(mod: CartModRule, base: number): number {
  if (base <= 0) return 0;
  const off =
    mod.discount_type === 'percent'
      ? Math.round((base * Math.min(100, Math.max(0, mod.discount_value))) / 100)
      : mod.discount_type === 'amount'
        ? mod.discount_value
        : base - mod.discount_value;
  return Math.min(base, Math.max(0, off));
}

/**
 * The best single discount among the cart's mods for one ticket (codes do not stack on one ticket): the largest, the
 * earliest applied on a tie. `null` when none covers it.
 */
export function bestDiscount<M extends CartModRule>(
  mods: M[],
  ticket: { ticket_type_id: string; handler: string },
  base: number,
): { mod: M; amount: number } | null {
  let best: { mod: M; amount: number } | null = null;
  for (const mod of mods) {
    if (!modCovers(mod, ticket)) continue;
    const amount = modDiscount(mod, base);
    if (amount > 0 && (!best || amount > best.amount)) best = { mod, amount };
  }
  return best;
}

/** The tab's codes from a `code` URL parameter, kept until a cart can take them (sessionStorage). */
export const PENDING_CODES_KEY = 'storefront.promoCodes';
type TabStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function tabStorage(): TabStorage | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

/** Remembers the codes of a URL's `code` parameter (comma list) beside those already waiting. */
export function rememberCodes(search: string, storage: TabStorage | null = tabStorage()): void {
  const fresh = splitCodes(new URLSearchParams(search).get('code'));
  if (!storage || fresh.length === 0) return;
  storage.setItem(PENDING_CODES_KEY, splitCodes([...pendingCodes(storage), ...fresh].join(',')).join(','));
}

export function pendingCodes(storage: TabStorage | null = tabStorage()): string[] {
  return splitCodes(storage?.getItem(PENDING_CODES_KEY));
}

export function forgetPendingCodes(storage: TabStorage | null = tabStorage()): void {
  storage?.removeItem(PENDING_CODES_KEY);
}
