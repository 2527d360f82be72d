import { contrastRatio } from '../domain/colors';
import type { ConfigStore } from '../stores/ConfigStore';

const FALLBACK_LINK = '#1f1f1f';
const AA_TEXT = 4.5;

/** The seller's primary colour as CSS variables; links fall back to near-black when the colour is too light
 *  to read on white (WCAG AA). */
export function themeVariables(config: ConfigStore): Record<string, string> {
  const readable = contrastRatio(config.primaryColor, '#ffffff') >= AA_TEXT;
  return {
    '--color-primary': config.primaryColor,
    '--color-on-primary': config.primaryTextColor,
    '--color-link': readable ? config.primaryColor : FALLBACK_LINK,
  };
}

export function applyTheme(config: ConfigStore, root: HTMLElement = document.documentElement): void {
  for (const [name, value] of Object.entries(themeVariables(config))) root.style.setProperty(name, value);
}
