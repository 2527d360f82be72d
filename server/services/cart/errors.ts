import { ApiError } from '../../http/errors';

/** Cart refusals with the spec's codes (section 8); the one error handler turns them into `_data[0]`. */
export const cartErrors = {
  expired: (cartId: string) => new ApiError(410, 'cart_expired', 'Unfortunately your cart has timed out.', 'reserve', { cart_id: cartId }),
  booked: (cartId: string, order?: { id: string; order_number: string }) => new ApiError(409, 'cart_booked',
    `Cart with order ID ${order?.order_number ?? cartId} has been booked.`, undefined,
    { cart_id: cartId, ...(order ? { ticket_order_id: order.id, order_number: order.order_number } : {}) }),
  checkingOut: (cartId: string) => new ApiError(409, 'cart_checkout_in_progress',
    'This cart is being checked out. Please wait a moment.', undefined, { cart_id: cartId }),
  notPending: (cartId: string, state: string) => new ApiError(409, 'cart_not_pending', 'This cart can no longer be changed.',
    undefined, { cart_id: cartId, state }),
  ticketNotFound: (ids: string[]) => new ApiError(404, 'ticket_not_found', 'Resource ticket not found.', 'cart_remove_tickets',
    { ticket_ids: ids }),
  extensionUsed: (cartId: string) => new ApiError(409, 'cart_extension_used', 'This cart has already been extended once.',
    undefined, { cart_id: cartId }),
};
