import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import translation from '../../locales/en/translation.json';

export const LANGUAGE = 'en';

/** An i18next instance over locales/en with the seller's string overrides ('events.title' -> text) on top. */
export function createI18n(overrides: Record<string, string> = {}): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: LANGUAGE,
    fallbackLng: LANGUAGE,
    resources: { [LANGUAGE]: { translation: structuredClone(translation) } },
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes text it renders
    returnNull: false,
  });
  for (const [key, value] of Object.entries(overrides)) {
    if (typeof value === 'string') instance.addResource(LANGUAGE, 'translation', key, value);
  }
  return instance;
}
