import type { ApiClient } from './http';
import type { SavedPaymentMethodRow, SavedPaymentMethodsAnswer } from '../contract/saved-payment';

/** GET my/identity/saved_payment_method: the logged-in user's saved cards (brand, last 4, expiry), newest first. */
export async function listSavedMethods(client: ApiClient): Promise<SavedPaymentMethodRow[]> {
  const { data } = await client.get<SavedPaymentMethodsAnswer>('my/identity/saved_payment_method');
  return data.saved_payment_method._data;
}

/** DELETE my/identity/saved_payment_method/{id}. */
export async function removeSavedMethod(client: ApiClient, id: string): Promise<void> {
  await client.delete(`my/identity/saved_payment_method/${encodeURIComponent(id)}`);
}
