import { DomainError } from '../errors';

/** Cart refusals with the spec's codes (section 8); the one error handler turns them into `_data[0]`. */
export const cartErrors = {
  expired: (cartId: string) => new DomainError('cart_expired', 'Unfortunately your cart has timed out.', 'reserve', { cart_id: cartId }),
  booked: (cartId: string, order?: { id: string; order_number: string }) =>
    new DomainError('cart_booked', `Cart with order ID ${order?.order_number ?? cartId} has been booked.`, undefined, {
      cart_id: cartId,
      ...(order ? { ticket_order_id: order.id, order_number: order.order_number } : {}),
    }),
  checkingOut: (cartId: string) =>
    new DomainError('cart_checkout_in_progress', 'This cart is being checked out. Please wait a moment.', undefined, { cart_id: cartId }),
  notPending: (cartId: string, state: string) =>
    new DomainError('cart_not_pending', 'This cart can no longer be changed.', undefined, { cart_id: cartId, state }),
  ticketNotFound: (ids: string[]) =>
    new DomainError('ticket_not_found', 'Resource ticket not found.', 'cart_remove_tickets', { ticket_ids: ids }),
  extensionUsed: (cartId: string) =>
    new DomainError('cart_extension_used', 'This cart has already been extended once.', undefined, { cart_id: cartId }),
};
