import type { ApiClient } from './http';
import type { AddressFindAnswer, AddressRetrieveAnswer, AddressRow, AddressSuggestion } from '../contract/address';

/** POST address/find (issue 22): suggestions for what was typed, or the addresses in a container. */
export async function findAddresses(
  client: ApiClient,
  query: { text?: string; container?: string },
  signal?: AbortSignal,
): Promise<AddressSuggestion[]> {
  const { data } = await client.post<AddressFindAnswer>('address/find', query, { signal });
  return data.items;
}

/** POST address/retrieve: the full address of a suggestion. */
export async function retrieveAddress(client: ApiClient, id: string, signal?: AbortSignal): Promise<AddressRow | null> {
  const { data } = await client.post<AddressRetrieveAnswer>('address/retrieve', { id }, { signal });
  return data.items[0] ?? null;
}
