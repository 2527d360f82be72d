/**
 * Addresses without I/O (issue 22; spec sections 3 and 5): whether the checkout offers the lookup, what a picked
 * address fills in, and the postcode and state rules that hold with and without the lookup (the server applies the
 * same ones, server/services/checkout/guest-identity.ts).
 */
import type { AddressRow } from '../contract/address';
import type { StorefrontConfig } from '../contract/storefront';

/** Spec section 9: the address search starts at 4 characters, 300 ms after the last key. */
export const ADDRESS_SEARCH_MIN = 4;
export const ADDRESS_SEARCH_DEBOUNCE_MS = 300;

/** The lookup is on when the server has a provider and the seller has not switched it off (`flags.address_lookup`). */
export const addressLookupOn = (config: StorefrontConfig, providerConfigured: boolean) =>
  providerConfigured && config.flags?.address_lookup !== false;

/** What a pick fills in: the identity form's address fields. */
export interface AddressFields {
  address: string;
  address_more: string;
  city: string;
  state: string;
  zip_code: string;
  country?: string;
}

/** How the lookup fills the purchaser form: the picked address's fields and the search box's text in one update. */
export type AddressFill = (fields: Partial<AddressFields> & { address_search?: string }) => void;

/** Line1 is the address, Line2 to Line5 (those given) the rest of it; the state is the province's code when there is
 *  one (a state list's value), else its name. */
export function addressFields(row: AddressRow): AddressFields {
  const more = [row.Line2, row.Line3, row.Line4, row.Line5].map((l) => l.trim()).filter(Boolean);
  return {
    address: row.Line1.trim(),
    address_more: more.join(', '),
    city: row.City.trim(),
    state: (row.ProvinceCode || row.Province).trim(),
    zip_code: row.PostalCode.trim(),
    ...(row.CountryIso2 ? { country: row.CountryIso2.toUpperCase() } : {}),
  };
}

/** Countries whose addresses name a state (a state list): the state is required there, and only there. */
export const STATE_LISTS: Record<string, readonly string[]> = {
  US: 'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY AS GU MP PR VI'.split(
    ' ',
  ),
  CA: 'AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' '),
  AU: 'ACT NSW NT QLD SA TAS VIC WA'.split(' '),
};

export const hasStateList = (country: string | undefined) => !!country && country.toUpperCase() in STATE_LISTS;

/** Countries the form offers (ISO 3166-1 alpha-2); the names come from the browser's Intl. */
export const COUNTRIES = [
  'US',
  'CA',
  'GB',
  'IE',
  'AU',
  'NZ',
  'FR',
  'DE',
  'NL',
  'BE',
  'ES',
  'IT',
  'CH',
  'AT',
  'SE',
  'DK',
  'NO',
  'JP',
  'MX',
] as const;

/** Zip or post code: letters and digits with an optional single space or hyphen between groups, 4 to 10 long. */
export const ZIP = /^(?=.{4,10}$)[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$/;
/** Spec section 5: US 5 digits; the UK pattern (outward code, a space or none, inward code). */
export const US_ZIP = /^\d{5}$/;
export const UK_POSTCODE = /^(GIR ?0AA|[A-PR-UWYZ](?:\d[A-HJKPSTUW\d]?|[A-HK-Y]\d[ABEHMNPRV-Y\d]?) ?\d[ABD-HJLNP-UW-Z]{2})$/i;

export type AddressProblem = 'zip_invalid' | 'state_required';

/** The postcode and state rules for one country ('' or unknown: the general zip rule only). */
export function addressProblems(fields: {
  country?: string | null;
  state?: string | null;
  zip_code?: string | null;
}): Partial<Record<'zip_code' | 'state', AddressProblem>> {
  const country = (fields.country ?? '').trim().toUpperCase();
  const zip = (fields.zip_code ?? '').trim();
  const out: Partial<Record<'zip_code' | 'state', AddressProblem>> = {};
  if (zip) {
    const ok = country === 'US' ? US_ZIP.test(zip) : country === 'GB' ? UK_POSTCODE.test(zip) : ZIP.test(zip);
    if (!ok) out.zip_code = 'zip_invalid';
  }
  if (hasStateList(country) && !(fields.state ?? '').trim()) out.state = 'state_required';
  return out;
}
