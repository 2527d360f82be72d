import type { ApiClient } from './http';
import type { StaffAnswer, StaffPreview } from '../contract/staff';

export type { StaffAnswer, StaffPreview };

/** Support staff (issue 18): login, who is logged in, the preview, logout. */
export async function staffLogin(client: ApiClient, email: string, password: string): Promise<StaffAnswer> {
  return (await client.post<StaffAnswer>('staff/login', { email, password })).data;
}

export async function staffMe(client: ApiClient): Promise<StaffAnswer> {
  return (await client.get<StaffAnswer>('staff/me')).data;
}

export async function setStaffPreview(client: ApiClient, preview: StaffPreview): Promise<StaffAnswer> {
  return (await client.put<StaffAnswer>('staff/preview', preview)).data;
}

export async function endStaffPreview(client: ApiClient): Promise<StaffAnswer> {
  return (await client.delete<StaffAnswer>('staff/preview')).data;
}

export async function staffLogout(client: ApiClient): Promise<void> {
  await client.post('staff/logout');
}
