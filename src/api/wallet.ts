import type { AxiosInstance } from 'axios';
import type { WalletPrecheckAnswer, WalletPrecheckRow } from '../contract/wallet';
import { ORDER_TOKEN_HEADER } from '../contract/urls';

/** GET ticket/{id}/walletprecheck (issue 17): a row per wallet provider, with the pass links' signature when `ok`. */
export async function walletPrecheck(client: AxiosInstance, ticketId: string, accessToken?: string | null): Promise<WalletPrecheckRow[]> {
  const { data } = await client.get<WalletPrecheckAnswer>(`ticket/${encodeURIComponent(ticketId)}/walletprecheck`, {
    headers: accessToken ? { [ORDER_TOKEN_HEADER]: accessToken } : {},
  });
  return data.wallet_precheck._data;
}
