import type { ApiClient } from './http';
import type {
  LoginBody,
  LogoutAnswer,
  MembershipProgramRow,
  MembershipRow,
  MyMembershipsAnswer,
  OtpRequestAnswer,
  RoleRow,
  UserAnswer,
} from '../contract/account';

export type { IdentityRow, UserRow } from '../contract/account';
export type { MembershipProgramRow, MembershipRow, RoleRow };
export type UserResponse = UserAnswer;
export type MembershipResponse = MyMembershipsAnswer;
/** Spec section 3 login payload. `method` picks the mode (password, otp, scan_code, ...). */
export type LoginPayload = LoginBody;

export const USER_EMBED = 'identity,identity.meta';
export const MEMBERSHIP_EMBED = 'role,membership_program,role.membership_program';

export async function getMyUser(client: ApiClient): Promise<UserResponse> {
  const { data } = await client.get<UserResponse>('my/user', { params: { _embed: USER_EMBED } });
  return data;
}

export async function getMyMemberships(client: ApiClient): Promise<MembershipResponse> {
  const { data } = await client.get<MembershipResponse>('my/membership', { params: { _embed: MEMBERSHIP_EMBED } });
  return data;
}

/** POST login: sets the httpOnly session cookie and answers like GET my/user. */
export async function postLogin(client: ApiClient, payload: LoginPayload): Promise<UserResponse> {
  const { data } = await client.post<UserResponse>('login', payload);
  return data;
}

/** POST login/request_otp: mails a passcode and a one-time link; `state` is the seller slug shown. */
export async function requestOtp(client: ApiClient, email: string, state?: string): Promise<OtpRequestAnswer> {
  const { data } = await client.post<OtpRequestAnswer>('login/request_otp', { email, ...(state ? { state } : {}) });
  return data;
}

/** POST login/otp_verify: token from request_otp (or the one-time link) and the 6-character code. */
export async function verifyOtp(client: ApiClient, token: string, otp: string, cartId?: string | null): Promise<UserResponse> {
  const { data } = await client.post<UserResponse>('login/otp_verify', { token, otp, ...(cartId ? { cart_id: cartId } : {}) });
  return data;
}

/** POST logout; answers the identity provider's logout address when the session began there (single sign-on). */
export async function postLogout(client: ApiClient): Promise<string | null> {
  const { data } = await client.post<LogoutAnswer>('logout', {});
  return data?.logout?._data?.[0]?.end_session_url ?? null;
}
