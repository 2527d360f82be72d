import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import { Body, IdParams, Instant, Row, Uuid } from './primitives';
import { Table } from './tables';
import { CartAnswer, CartQuery } from './cart';

/**
 * Cart transfer (issue 17; spec section 2, /transfer-cart/{cartId}): the owner of a cart makes a link that carries it
 * to another browser or device. The link holds a token of 256 random bits (the server keeps its sha256 only); whoever
 * opens the link claims the cart with it, once, within CART_TRANSFER_MINUTES, and the cart is theirs from then on. A
 * cart id alone hands nothing over.
 */

/** How long a transfer link works (it works once). */
export const CART_TRANSFER_MINUTES = 60;

/** A transfer token: 32 random bytes, base64url. */
export const TransferToken = Type.String({ minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]{43}$' });

export const CartTransferRow = Row({
  cart_id: Uuid,
  /** the secret the link carries (in its fragment, `#token=`); shown once, never stored */
  token: TransferToken,
  expires_at: Instant,
});
export type CartTransferRow = Static<typeof CartTransferRow>;

export const CartTransferAnswer = Row({ cart_transfer: Table(CartTransferRow) });
export type CartTransferAnswer = Static<typeof CartTransferAnswer>;

export const ClaimBody = Body({ token: TransferToken });
export type ClaimBody = Static<typeof ClaimBody>;

export const cartTransferRoutes = {
  create: route({
    method: 'POST',
    url: '/cart/:id/transfer',
    schema: {
      summary: `A link to carry the caller's pending cart to another browser: a token that works once, for ${CART_TRANSFER_MINUTES} minutes (a new link replaces the last)`,
      tags: ['cart'],
      params: IdParams,
      body: Body({}),
      response: answers(CartTransferAnswer),
    },
  }),
  claim: route({
    method: 'POST',
    url: '/cart/:id/claim',
    schema: {
      summary:
        "Takes over a guest cart with its transfer link's token (once; 403 cart_access_denied for a wrong, used or expired token) and answers it as GET cart does; a member's cart is answered but stays the member's; the cart's owner is answered without a token",
      tags: ['cart'],
      params: IdParams,
      querystring: CartQuery,
      body: ClaimBody,
      response: answers(CartAnswer),
    },
  }),
};
