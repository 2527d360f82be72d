import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import './styles/app.css';
import { bootstrap } from './boot';
import { bootTranslation, createI18n, loadTranslation } from './i18n';
import { RootStore } from './stores/RootStore';
import { StoresProvider } from './stores/context';
import { AppRoutes } from './app/router';
import { basenameFor } from './domain/paths';
import { applyTheme } from './app/theme';
import { BootError, BootLoading } from './BootScreens';

function renderWith(root: Root, i18n: I18n, node: React.ReactNode) {
  root.render(<StrictMode><I18nextProvider i18n={i18n}>{node}</I18nextProvider></StrictMode>);
}

/** Boot (DESIGN.md section 2): deployment config -> seller config -> i18n -> stores -> router. */
async function main() {
  const root = createRoot(document.getElementById('root')!);
  const baseI18n = createI18n(bootTranslation);
  renderWith(root, baseI18n, <BootLoading />);
  try {
    const [boot, translation] = await Promise.all([bootstrap(window.location.pathname), loadTranslation()]);
    const i18n = createI18n(translation, boot.sellerConfig.strings);
    document.documentElement.lang = i18n.language;
    const store = new RootStore(boot);
    applyTheme(store.config);
    renderWith(root, i18n, (
      <StoresProvider store={store}>
        <BrowserRouter basename={basenameFor(store.config.sellerPrefix)}><AppRoutes /></BrowserRouter>
      </StoresProvider>
    ));
  } catch (error) {
    console.error('storefront boot failed', error);
    renderWith(root, baseI18n, <BootError />);
  }
}

void main();
