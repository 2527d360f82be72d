import type { AxiosInstance } from 'axios';
import type { Table } from './types';

/** GET my/user `user` row. `email` is null for users without a real address (no-email marker). */
export interface UserRow {
  id: string;
  seller_id?: string;
  identity_id: string;
  email: string | null;
  has_email?: boolean;
  has_password?: boolean;
}

/** GET my/user `identity` row (with identity.meta when embedded). */
export interface IdentityRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone?: string | null;
  address?: string | null;
  address_more?: string | null;
  city?: string | null;
  state?: string | null;
  region?: string | null;
  country?: string | null;
  zip_code?: string | null;
  additional_info?: Record<string, unknown> | null;
  meta?: Record<string, unknown>;
}

export interface UserResponse {
  user: Table<UserRow>;
  identity: Table<IdentityRow>;
}

/** GET my/membership row (spec section 3, Membership). */
export interface MembershipRow {
  id: string;
  scan_code: string | null;
  role_id: string;
  membership_program_id: string | null;
  state?: string;
  auto_renew_state: string | null;
  valid_from: string | null;
  valid_to: string | null;
  member_event_purchase_limit?: number | null;
  ticket_order_id?: string | null;
  ticket_group_id?: string | null;
  event_template_id?: string | null;
  identity_id?: string;
  benefits?: unknown[];
}

export interface MembershipResponse {
  membership: Table<MembershipRow>;
  role?: Table<{ id: string; name: string; _rank: number; membership_program_id: string | null; [key: string]: unknown }>;
  membership_program?: Table<{ id: string; name: string; _rank: number }>;
  [table: string]: unknown;
}

/** Spec section 3 login payload. `method` picks the mode (password, otp, scan_code, ...). */
export interface LoginPayload {
  method?: string;
  username?: string;
  password?: string;
  scan_code?: string;
  zip_code?: string;
  last_name?: string;
  otp?: string;
  token?: string;
  cart_id?: string;
}

export const USER_EMBED = 'identity,identity.meta';
export const MEMBERSHIP_EMBED = 'role,membership_program,role.membership_program';

export async function getMyUser(client: AxiosInstance): Promise<UserResponse> {
  const { data } = await client.get<UserResponse>('my/user', { params: { _embed: USER_EMBED } });
  return data;
}

export async function getMyMemberships(client: AxiosInstance): Promise<MembershipResponse> {
  const { data } = await client.get<MembershipResponse>('my/membership', { params: { _embed: MEMBERSHIP_EMBED } });
  return data;
}

/** POST login: sets the httpOnly session cookie and answers like GET my/user. */
export async function postLogin(client: AxiosInstance, payload: LoginPayload): Promise<UserResponse> {
  const { data } = await client.post<UserResponse>('login', payload);
  return data;
}

/** POST login/request_otp: mails a passcode and a one-time link; `state` is the seller slug shown. */
export async function requestOtp(client: AxiosInstance, email: string, state?: string): Promise<{ token: string; expires_in: number }> {
  const { data } = await client.post<{ token: string; expires_in: number }>('login/request_otp', { email, ...(state ? { state } : {}) });
  return data;
}

/** POST login/otp_verify: token from request_otp (or the one-time link) and the 6-character code. */
export async function verifyOtp(client: AxiosInstance, token: string, otp: string, cartId?: string | null): Promise<UserResponse> {
  const { data } = await client.post<UserResponse>('login/otp_verify', { token, otp, ...(cartId ? { cart_id: cartId } : {}) });
  return data;
}

export async function postLogout(client: AxiosInstance): Promise<void> {
  await client.post('logout', {});
}
