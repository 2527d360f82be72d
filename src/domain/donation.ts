import { parseMoney } from './money';

/** The checkout's donation offer (spec section 2, donation upsell): the amounts it suggests, in minor units. */
const PRESETS = [1000, 2500, 5000, 10000];

/** The usual amounts that fall within the type's range, and its own suggested price; at most four, smallest first. */
export function donationPresets(type: { min: number; max: number; suggested: number }): number[] {
  const within = (m: number) => m >= type.min && m <= type.max;
  const all = [...new Set([...PRESETS, type.suggested])].filter(within).sort((a, b) => a - b);
  return all.slice(0, 4);
}

/** An amount the shopper typed ('25', '25.50', '$1,000') in minor units, or null when it is not an amount. */
export function parseDonation(text: string): number | null {
  const cleaned = text.replace(/[\s,]/g, '').replace(/^[^\d.-]+/, '');
  return cleaned ? parseMoney(cleaned) : null;
}
