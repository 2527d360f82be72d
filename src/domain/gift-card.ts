/** Gift cards (spec sections 3, 5, 8): a card number as typed, and what the checkout may take from each card. */

import { GIFT_CARD_MAX } from '../contract/limits';

export { GIFT_CARD_MAX };

/** Numbers are kept in upper case; spaces around a typed number and its letter case do not matter. */
export const normaliseGiftCardNumber = (typed: string) => typed.trim().toUpperCase();

/** 'required' | 'too_long' | null for a typed number. */
export function giftCardNumberProblem(typed: string): 'required' | 'too_long' | null {
  const n = normaliseGiftCardNumber(typed);
  if (!n) return 'required';
  if (n.length > GIFT_CARD_MAX) return 'too_long';
  return null;
}

/**
 * What each applied card pays, in order, out of what is outstanding (minor units): as much of its balance as is
 * still owed. The rest is what the card payment takes: due minus the cards' payments, never below 0 (spec section 9).
 */
export function giftCardPlan(outstanding: number, balances: number[]): { payments: number[]; rest: number } {
  let left = Math.max(0, outstanding);
  const payments = balances.map((b) => {
    const take = Math.max(0, Math.min(b, left));
    left -= take;
    return take;
  });
  return { payments, rest: left };
}
