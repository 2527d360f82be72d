import type { ApiClient } from './http';
import type { MembershipResponse, UserResponse } from './auth';
import type { MyOrdersAnswer, MySessionsAnswer, OrderSessionRow, ResendAnswer, ResetIdentityAnswer } from '../contract/account';
import type { OrderAnswer, TicketOrderRow, TicketRow } from '../contract/cart';

/** The account area's reads and the recovery calls (spec section 7). */

export type AccountTicketRow = TicketRow;
export type AccountOrderRow = TicketOrderRow;
export type { OrderSessionRow };
/** Tables a my/* read may embed. */
export type AccountTables = Omit<MyOrdersAnswer, 'ticket_order'>;
export type OrdersResponse = MyOrdersAnswer | OrderAnswer;
export type OrderSessionsResponse = MySessionsAnswer;

const CATALOGUE_EMBED = 'ticket,ticket.ticket_type,ticket.ticket_group,ticket.event_template,venue';
/** Spec section 7, my/membership embeds (the ones this API serves). */
export const ACCOUNT_MEMBERSHIP_EMBED =
  'role,identity_link,ticket,ticket_order,ticket.ticket_type,ticket.event_template,ticket.ticket_group,role.membership_program';

export async function getMyMembership(client: ApiClient): Promise<MembershipResponse> {
  const { data } = await client.get<MembershipResponse>('my/membership', { params: { _embed: ACCOUNT_MEMBERSHIP_EMBED } });
  return data;
}

/** GET my/ticket_order, newest first (optionally only some ids). */
export async function getMyOrders(client: ApiClient, opts: { ids?: string[]; limit?: number } = {}): Promise<OrdersResponse> {
  const { data } = await client.get<MyOrdersAnswer>('my/ticket_order', {
    params: {
      _embed: CATALOGUE_EMBED,
      ...(opts.ids?.length ? { 'id._in': opts.ids.join(',') } : {}),
      ...(opts.limit ? { _limit: opts.limit } : {}),
    },
  });
  return data;
}

/** GET ticket_order/{id}: one order with its tickets; 404 when it is not the caller's. */
export async function getAccountOrder(client: ApiClient, orderId: string): Promise<OrdersResponse> {
  const { data } = await client.get<OrderAnswer>(`ticket_order/${encodeURIComponent(orderId)}`, {
    params: { _embed: 'ticket,ticket_type,ticket_group,event_template,venue' },
  });
  return data;
}

/** GET my/order_session: sessions of the user's booked or redeemed tickets from `from` on (or one session). */
export async function getMySessions(client: ApiClient, opts: { from?: Date; id?: string } = {}): Promise<OrderSessionsResponse> {
  const { data } = await client.get<OrderSessionsResponse>('my/order_session', {
    params: {
      _embed: CATALOGUE_EMBED,
      'ticket.state._in': 'booked,redeemed',
      ...(opts.from ? { 'start_datetime._gte': opts.from.toISOString() } : {}),
      ...(opts.id ? { id: opts.id } : {}),
    },
  });
  return data;
}

export async function requestPasswordReset(client: ApiClient, email: string): Promise<void> {
  await client.post('password_reset/request', { email });
}

/** POST password_reset/validate: the e-mail of the account the token resets. */
export async function validateResetToken(client: ApiClient, token: string): Promise<string> {
  const { data } = await client.post<ResetIdentityAnswer>('password_reset/validate', { token });
  return data.identity._data[0]?.email ?? '';
}

export async function resetPassword(client: ApiClient, token: string, password: string, passwordConfirm: string): Promise<string> {
  const { data } = await client.post<ResetIdentityAnswer>('password_reset/reset', { token, password, password_confirm: passwordConfirm });
  return data.identity._data[0]?.email ?? '';
}

/** POST ticket_order/resend: mails the address's orders again (404 when it has none). */
export async function resendOrders(client: ApiClient, email: string, membershipsOnly = false): Promise<number> {
  const { data } = await client.post<ResendAnswer>('ticket_order/resend', {
    email,
    ...(membershipsOnly ? { memberships_only: true } : {}),
  });
  return data.ticket_order._count;
}

/** PUT my/user: sets the logged-in user's e-mail address (409 email_in_use when another account has it). */
export async function putMyEmail(client: ApiClient, email: string, emailConfirm: string): Promise<UserResponse> {
  const { data } = await client.put<UserResponse>(
    'my/user',
    { email, email_confirm: emailConfirm },
    { params: { _embed: 'identity,identity.meta' } },
  );
  return data;
}
