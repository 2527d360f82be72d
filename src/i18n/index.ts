import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
// Only the boot screens' texts travel in the bundle (a named import keeps just this subtree); the rest of the
// translation is data, fetched beside the seller config (loadTranslation).
import { app } from '../../locales/en/translation.json';
import translationUrl from '../../locales/en/translation.json?url';

export const LANGUAGE = 'en';

export type Translation = Record<string, unknown>;

/** What the loading and boot-error screens need before the full translation has arrived. */
export const bootTranslation: Translation = { app };

/** locales/en/translation.json from the build's assets (a hashed, long-cached file). */
export async function loadTranslation(fetchImpl: typeof fetch = fetch): Promise<Translation> {
  const response = await fetchImpl(translationUrl);
  if (!response.ok) throw new Error(`translation: HTTP ${response.status}`);
  return (await response.json()) as Translation;
}

/** An i18next instance over a translation with the seller's string overrides ('events.title' -> text) on top. */
export function createI18n(translation: Translation, overrides: Record<string, string> = {}): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: LANGUAGE,
    fallbackLng: LANGUAGE,
    // The instance keeps (and writes the seller's overrides into) the object it is given: pass a fresh one.
    resources: { [LANGUAGE]: { translation } },
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes text it renders
    returnNull: false,
  });
  for (const [key, value] of Object.entries(overrides)) {
    if (typeof value === 'string') instance.addResource(LANGUAGE, 'translation', key, value);
  }
  return instance;
}
