/**
 * Price display and fees (spec section 9 Pricing). Money is integer minor units; the wire carries
 * decimal strings. A fee is fixed (minor units) and/or percent (of the ticket price, e.g. 5 = 5 %).
 */
import { parseMoney } from './money';

export interface FeeSpec {
  name: string;
  fixed?: number;
  percent?: number;
}
export interface PricedType {
  price: number;
  price_min?: number | null;
  price_max?: number | null;
  discounted_price?: number | null;
  outside_fees?: FeeSpec[] | null;
}

/** One fee on one ticket price, rounded half up to the minor unit. */
export function feeAmount(price: number, fee: FeeSpec): number {
  const fixed = Number.isFinite(fee.fixed) ? Number(fee.fixed) : 0;
  const percent = Number.isFinite(fee.percent) ? Number(fee.percent) : 0;
  return fixed + Math.round((price * percent) / 100);
}

/** Each outside fee with its amount for this price. */
export function outsideFees(price: number, fees: FeeSpec[] | null | undefined): Array<{ name: string; fee: number }> {
  return (fees ?? []).map((f) => ({ name: f.name, fee: feeAmount(price, f) }));
}

export function totalOutsideFees(price: number, fees: FeeSpec[] | null | undefined): number {
  return outsideFees(price, fees).reduce((sum, f) => sum + f.fee, 0);
}

/** Flexible price when both bounds are set (donations, pay-what-you-wish). */
export function isFlexiblePrice(t: PricedType): boolean {
  return t.price_min !== null && t.price_min !== undefined && t.price_max !== null && t.price_max !== undefined;
}

/** What the buyer pays before fees: the discounted price when present. */
export function effectivePrice(t: PricedType, increase = 0): number {
  const base = t.discounted_price !== null && t.discounted_price !== undefined ? t.discounted_price : t.price;
  return Math.max(0, base + increase);
}

/** The advertised price: effective price, plus the outside fees only when the seller advertises prices with fees. */
export function displayPrice(t: PricedType, opts: { includeFees: boolean; increase?: number }): number {
  const price = effectivePrice(t, opts.increase ?? 0);
  return opts.includeFees ? price + totalOutsideFees(price, t.outside_fees) : price;
}

/** The cheapest of several types (null when none), by effective price. */
export function cheapest<T extends PricedType>(types: T[], increase = 0): T | null {
  let best: T | null = null;
  for (const t of types) if (!best || effectivePrice(t, increase) < effectivePrice(best, increase)) best = t;
  return best;
}

/** Minor units -> '12.50'. */
export function toDecimal(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.round(minor));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Wire money ('12.50') -> minor units (1250), 0 when absent or not money; src/domain/money.ts is the one parser. */
export function decimalToMinor(value: string | null | undefined): number {
  return parseMoney(value, { allowNegative: true }) ?? 0;
}

/** Minor units -> '$12.50' in the seller currency. */
const moneyFormats = new Map<string, Intl.NumberFormat>();

export function formatMoney(minor: number, currency: string, locale = 'en-US'): string {
  const key = `${locale}|${currency}`;
  try {
    let f = moneyFormats.get(key);
    if (!f) moneyFormats.set(key, (f = new Intl.NumberFormat(locale, { style: 'currency', currency })));
    return f.format(minor / 100);
  } catch {
    return `${toDecimal(minor)} ${currency}`;
  }
}

/** Spec section 9: outstanding = amount due minus gift card balance, floored at 0. */
export function outstanding(amountDue: number, giftCardBalance: number): number {
  return Math.max(0, amountDue - Math.max(0, giftCardBalance));
}
