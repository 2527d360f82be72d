import type { ServerConfig } from '../config';
import type { AddressRow, AddressSuggestion } from '../../src/contract/address';
import { DomainError } from './errors';

/**
 * The address provider (issue 22), reached from the server only: its key stays here. The built-in adapter speaks
 * Loqate's Capture Interactive Find/Retrieve shape (GET {base}/Find/v1.10/json3.ws?Key&Text&Container, GET
 * {base}/Retrieve/v1.20/json3.ws?Key&Id; both answer { Items: [...] }, and a refusal as one item with Error,
 * Description, Cause, Resolution). Whatever goes wrong there (a refusal, an odd answer, no answer within ADDRESS_LOOKUP_TIMEOUT_MS) is
 * address_lookup_failed to the storefront, which switches to manual entry; the provider's own words stay out of it.
 */
export const addressLookupConfigured = (config: Pick<ServerConfig, 'addressLookupUrl' | 'addressLookupKey'>) =>
  !!(config.addressLookupUrl && config.addressLookupKey);

const failed = () => new DomainError('address_lookup_failed', 'The address lookup is not answering; enter the address by hand.');

/** A provider's value as our bounded text: strings and numbers kept, anything else empty. */
const text = (value: unknown, max = 200) =>
  typeof value === 'string' || typeof value === 'number' ? String(value).trim().slice(0, max) : '';

/** Loqate Find items -> our suggestions; items without an id are dropped. */
export function suggestionsFrom(items: unknown[]): AddressSuggestion[] {
  return items
    .filter((i): i is Record<string, unknown> => !!i && typeof i === 'object')
    .map((i) => ({ Id: text(i.Id), Type: text(i.Type, 40) || 'Address', Text: text(i.Text), Description: text(i.Description) }))
    .filter((s) => s.Id !== '')
    .slice(0, 100);
}

/** Loqate Retrieve items -> our addresses (Loqate may answer one per language; the first comes first). */
export function addressesFrom(items: unknown[]): AddressRow[] {
  return items
    .filter((i): i is Record<string, unknown> => !!i && typeof i === 'object')
    .map((i) => ({
      Line1: text(i.Line1),
      Line2: text(i.Line2),
      Line3: text(i.Line3),
      Line4: text(i.Line4),
      Line5: text(i.Line5),
      City: text(i.City),
      Province: text(i.Province) || text(i.ProvinceName),
      ProvinceCode: text(i.ProvinceCode, 40),
      PostalCode: text(i.PostalCode, 40),
      CountryIso2: /^[A-Za-z]{2}$/.test(text(i.CountryIso2)) ? text(i.CountryIso2).toUpperCase() : '',
    }))
    .slice(0, 10);
}

/** One call to the provider: its Items, or address_lookup_failed for a refusal, a non-2xx, odd JSON or a timeout. */
async function call(config: ServerConfig, operation: string, params: Record<string, string | undefined>): Promise<unknown[]> {
  if (!addressLookupConfigured(config)) throw new DomainError('address_lookup_unavailable', 'Address lookup is not configured.');
  const url = new URL(`${config.addressLookupUrl!.replace(/\/$/, '')}/${operation}/json3.ws`);
  url.searchParams.set('Key', config.addressLookupKey!);
  for (const [name, value] of Object.entries(params)) if (value) url.searchParams.set(name, value);
  let body: unknown;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(config.addressLookupTimeoutMs), headers: { accept: 'application/json' } });
    if (!res.ok) throw failed();
    body = await res.json();
  } catch {
    throw failed();
  }
  const items = (body as { Items?: unknown } | null)?.Items;
  if (!Array.isArray(items)) throw failed();
  if (items.some((i) => !!i && typeof i === 'object' && 'Error' in i)) throw failed();
  return items;
}

export async function findAddresses(config: ServerConfig, query: { text?: string; container?: string }): Promise<AddressSuggestion[]> {
  const t = (query.text ?? '').trim();
  if (!t && !query.container) return [];
  return suggestionsFrom(await call(config, 'Find/v1.10', { Text: t, Container: query.container }));
}

export async function retrieveAddress(config: ServerConfig, id: string): Promise<AddressRow[]> {
  return addressesFrom(await call(config, 'Retrieve/v1.20', { Id: id }));
}
