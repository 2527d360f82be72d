import { StrictMode, type ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import type { RootStore } from '../stores/RootStore';
import { StoresProvider, useStores } from '../stores/context';

/**
 * Holds every control of the page (a disabled fieldset: its buttons, fields and selects) until the page is alive
 * (RootStore.alive). A page the server drew shows its screen before the client has taken it over, and what a visitor
 * typed or clicked in that time would be lost: React does not adopt it when it hydrates. Held, the controls take
 * nothing until they work, and are announced as unavailable meanwhile; links stay plain links. The fieldset has no box
 * (`display: contents`) and no role, and styles key on a control's own `[disabled]`, so the held page looks as drawn.
 * A page the client draws itself is alive from its first render.
 */
const HoldUntilAlive = observer(function HoldUntilAlive({ children }: { children: ReactNode }) {
  const { alive } = useStores();
  return (
    <fieldset className="app-hold" role="none" disabled={!alive}>
      {children}
    </fieldset>
  );
});

/**
 * The storefront around its router (`children`: the router with AppRoutes), the same in the browser (src/main.tsx)
 * and on the server (src/entry-server.tsx), so a page the server drew hydrates as it was drawn.
 */
export function AppTree({ store, i18n, children }: { store: RootStore; i18n: I18n; children: ReactNode }) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <StoresProvider store={store}>
          <HoldUntilAlive>{children}</HoldUntilAlive>
        </StoresProvider>
      </I18nextProvider>
    </StrictMode>
  );
}
