/** The manage link of an order (issue 17), shared by the server that signs it and the screen that reads it; a
 *  module of its own so the first page's code does not carry it. */
/** The signature of an order's manage link (issue 17) travels to the API in this header; in the e-mail it is the
 *  link's `sig` query parameter, which the manage screen reads and then removes from the address bar. */
export const MANAGE_SIGNATURE_HEADER = 'x-order-manage-signature';

/** The storefront path of an order's manage screen, signed: `/manage/{orderId}?sig=...`. */
export function managePath(orderId: string, signature: string): string {
  return `/manage/${encodeURIComponent(orderId)}?${new URLSearchParams({ sig: signature })}`;
}
