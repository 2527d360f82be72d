import type { AxiosInstance } from 'axios';
import type { StaffAnswer, StaffPreview } from '../contract/staff';

export type { StaffAnswer, StaffPreview };

/** Support staff (issue 18): login, who is logged in, the preview, logout. */
export async function staffLogin(client: AxiosInstance, email: string, password: string): Promise<StaffAnswer> {
  return (await client.post<StaffAnswer>('staff/login', { email, password })).data;
}

export async function staffMe(client: AxiosInstance): Promise<StaffAnswer> {
  return (await client.get<StaffAnswer>('staff/me')).data;
}

export async function setStaffPreview(client: AxiosInstance, preview: StaffPreview): Promise<StaffAnswer> {
  return (await client.put<StaffAnswer>('staff/preview', preview)).data;
}

export async function endStaffPreview(client: AxiosInstance): Promise<StaffAnswer> {
  return (await client.delete<StaffAnswer>('staff/preview')).data;
}

export async function staffLogout(client: AxiosInstance): Promise<void> {
  await client.post('staff/logout');
}
