import { StrictMode, useEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import type { RootStore } from '../stores/RootStore';
import { StoresProvider } from '../stores/context';

/** Runs `run` once the tree it sits in has committed (a hydrated page: once it is the client's). */
function AfterCommit({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}

/**
 * The storefront around its router (`children`: the router with AppRoutes), the same in the browser (src/main.tsx)
 * and on the server (src/entry-server.tsx), so a page the server drew hydrates as it was drawn.
 */
export function AppTree({
  store,
  i18n,
  children,
  onCommitted,
}: {
  store: RootStore;
  i18n: I18n;
  children: ReactNode;
  onCommitted?: () => void;
}) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <StoresProvider store={store}>
          {children}
          {onCommitted && <AfterCommit run={onCommitted} />}
        </StoresProvider>
      </I18nextProvider>
    </StrictMode>
  );
}
