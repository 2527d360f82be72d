import type { ApiClient } from './http';
import type { ConfigResponse } from './types';

/** GET config?key._in=payments (issue 14): the seller's card gateway and Stripe's publishable key; only the checkout asks. */
export async function getPaymentsConfig(client: ApiClient): Promise<{ gateway: 'test' | 'stripe'; publishable_key?: string }> {
  const { data } = await client.get<ConfigResponse>('config', { params: { 'key._in': 'payments' } });
  const value = data.config?._data?.find((row) => row.key === 'payments')?.value as
    { gateway?: string; publishable_key?: string } | undefined;
  return {
    gateway: value?.gateway === 'stripe' ? 'stripe' : 'test',
    ...(value?.publishable_key ? { publishable_key: value.publishable_key } : {}),
  };
}
