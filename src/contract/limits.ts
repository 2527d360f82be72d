/** Limits of spec section 9 that the wire carries, each defined once for both programs. */

/** At most this many tickets of one type in one order (and in one quantity line). */
export const PER_TYPE_CAP = 1000;
/** The cart read asks for at most this many tickets. */
export const CART_FETCH_LIMIT = 1000;
/** A calendar for a selection takes at most this many different ticket types. */
export const CALENDAR_MAX_TICKET_TYPES = 10;
/** Spec section 5: a gift card number is at most this many characters. */
export const GIFT_CARD_MAX = 70;
