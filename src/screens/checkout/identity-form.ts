import type { TFunction } from 'i18next';
import type { FormValidation, RJSFSchema, UiSchema } from '@rjsf/utils';
import schemaJson from '../../../schemas/identity-form.schema.json';
import { emailsMatch, type IdentityFormData } from '../../domain/checkout-rules';
import { addressProblems } from '../../domain/address';
import { AddressSearch } from './AddressSearch';

export const identitySchema = schemaJson as unknown as RJSFSchema;

const FIELDS = [
  'first_name',
  'last_name',
  'email',
  'email_confirm',
  'phone',
  'address',
  'address_more',
  'city',
  'state',
  'zip_code',
  'country',
] as const;
const LABELS: Record<(typeof FIELDS)[number], string> = {
  first_name: 'identity.firstName',
  last_name: 'identity.lastName',
  email: 'identity.email',
  email_confirm: 'identity.emailConfirm',
  phone: 'identity.phone',
  address: 'identity.address',
  address_more: 'identity.addressMore',
  city: 'identity.city',
  state: 'identity.state',
  zip_code: 'identity.zip',
  country: 'identity.country',
};
const AUTOCOMPLETE: Record<(typeof FIELDS)[number], string> = {
  first_name: 'given-name',
  last_name: 'family-name',
  email: 'email',
  email_confirm: 'email',
  phone: 'tel',
  address: 'address-line1',
  address_more: 'address-line2',
  city: 'address-level2',
  state: 'address-level1',
  zip_code: 'postal-code',
  country: 'country',
};

/** Country names in the visitor's language (the browser's own list), for the country choice. */
function countryNames(codes: readonly string[], locale: string): string[] {
  try {
    const names = new Intl.DisplayNames([locale, 'en'], { type: 'region' });
    return codes.map((c) => names.of(c) ?? c);
  } catch {
    return [...codes];
  }
}

/**
 * Translated labels, input types and autocomplete hints for the purchaser form. With `lookup` (issue 22: the server
 * has an address provider and the seller has not switched it off) the address fields start with the lookup's search
 * box, a combobox that fills them; without it that box is left out and the fields are typed as ever.
 */
export function identityUiSchema(t: TFunction, opts: { lookup?: boolean; locale?: string } = {}): UiSchema<IdentityFormData> {
  // The section heading names the form; the schema's own title would repeat it as a legend.
  const ui: UiSchema<IdentityFormData> = { 'ui:label': false, 'ui:submitButtonOptions': { norender: true } };
  for (const field of FIELDS) {
    ui[field] = {
      'ui:title': t(LABELS[field]),
      'ui:autocomplete': AUTOCOMPLETE[field],
      ...(field.startsWith('email') ? { 'ui:inputType': 'email' } : {}),
      ...(field === 'phone' ? { 'ui:inputType': 'tel' } : {}),
    } as UiSchema;
  }
  const codes = ((identitySchema.properties?.country as { enum?: string[] } | undefined)?.enum ?? []) as string[];
  ui.country = { ...ui.country, 'ui:enumNames': countryNames(codes, opts.locale ?? 'en'), 'ui:placeholder': t('identity.countryNone') };
  for (const field of ['address', 'address_more'] as const) ui[field] = { ...ui[field], 'ui:classNames': 'form-field--wide' };
  ui.address_search = opts.lookup
    ? { 'ui:widget': AddressSearch, 'ui:label': false, 'ui:title': t('address.search'), 'ui:classNames': 'form-field--wide' }
    : { 'ui:widget': 'hidden' };
  return ui;
}

/** Field-specific texts for ajv keywords the generic ones describe badly. */
export const identityErrorMessages = {
  email: { format: 'identity.emailInvalid' },
  email_confirm: { format: 'identity.emailInvalid' },
  zip_code: { pattern: 'identity.zipInvalid', minLength: 'identity.zipInvalid', maxLength: 'identity.zipInvalid' },
};

/**
 * What the schema cannot say (spec section 5): names of blanks only are missing; the emails must match; a country's
 * postcode rule (US 5 digits, the UK pattern) and its state where it has a state list; and, with the lookup, 'no
 * suggestion picked' when the visitor typed a search but the address is still empty.
 */
export function validateIdentity(t: TFunction) {
  return (data: IdentityFormData | undefined, errors: FormValidation<IdentityFormData>) => {
    for (const field of ['first_name', 'last_name'] as const) {
      const value = data?.[field];
      if (typeof value === 'string' && value.trim() === '') errors[field]?.addError(t('checkout.fieldErrors.required'));
    }
    if (data?.email && data?.email_confirm && !emailsMatch(data.email, data.email_confirm)) {
      errors.email_confirm?.addError(t('identity.emailsMustMatch'));
    }
    const problems = addressProblems(data ?? {});
    // The general zip rule is the schema's (its own message); a country's own rule words its own.
    const country = (data?.country ?? '').toUpperCase();
    if (problems.zip_code && (country === 'US' || country === 'GB')) {
      errors.zip_code?.addError(t(country === 'US' ? 'identity.zipInvalidUs' : 'identity.zipInvalidUk'));
    }
    if (problems.state) errors.state?.addError(t('identity.stateRequired'));
    if ((data?.address_search ?? '').trim() && !(data?.address ?? '').trim()) errors.address_search?.addError(t('address.notPicked'));
    return errors;
  };
}
