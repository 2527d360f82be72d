import { createContext, useContext, useState, type ReactNode } from 'react';
import { when } from 'mobx';
import { AccountStore } from '../../stores/AccountStore';
import { useStores } from '../../stores/context';
import type { SessionStore } from '../../stores/SessionStore';

const AccountContext = createContext<AccountStore | null>(null);

/** A fresh AccountStore for a screen visit (the account area shares one across its pages). */
export function useNewAccountStore(): AccountStore {
  const { api } = useStores();
  const [store] = useState(() => new AccountStore({ api }));
  return store;
}

export function AccountProvider({ store, children }: { store: AccountStore; children: ReactNode }) {
  return <AccountContext.Provider value={store}>{children}</AccountContext.Provider>;
}

export function useAccountStore(): AccountStore {
  const store = useContext(AccountContext);
  if (!store) throw new Error('useAccountStore() used outside <AccountProvider>');
  return store;
}

/** How long a route waits for the session (and the memberships guard 3 needs) before deciding anyway. */
export const SESSION_WAIT_MS = 5000;

/** Resolves once the session is known: logged out, or logged in with its memberships read. */
export async function sessionSettled(session: SessionStore): Promise<void> {
  try {
    await when(() => session.status === 'ready' && (!session.isLoggedIn || session.membershipTables !== null),
      { timeout: SESSION_WAIT_MS });
  } catch {
    // Memberships failed to load or the API is slow: decide with what is known.
  }
}
