import i18next, { type TFunction } from 'i18next';
import translation from '../../../locales/en/translation.json';

/**
 * The mail's words: locales/en/translation.json (its `mail` keys, or those of `prefixes`: the wallet passes' `wallet.`)
 * with the seller's string overrides on top, so a seller brands the e-mail's texts the way it brands the storefront's.
 * Interpolation does not escape: the template is React, which escapes every value it writes (a pass is JSON).
 */
export function mailStrings(overrides: Record<string, string> | null | undefined, prefixes: readonly string[] = ['mail.']): TFunction {
  const instance = i18next.createInstance();
  void instance.init({
    lng: 'en',
    resources: { en: { translation: structuredClone(translation) } },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (prefixes.some((p) => key.startsWith(p)) && typeof value === 'string') instance.addResource('en', 'translation', key, value);
  }
  return instance.t;
}
