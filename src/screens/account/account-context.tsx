import { createContext, useContext, type ReactNode } from 'react';
import { AccountStore } from '../../stores/AccountStore';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';

const AccountContext = createContext<AccountStore | null>(null);

/** A fresh AccountStore for a screen visit (the account area shares one across its pages through AccountProvider). */
export function useNewAccountStore(): AccountStore {
  const { api } = useStores();
  return useScreenStore(() => new AccountStore({ api }), [api]);
}

export function AccountProvider({ store, children }: { store: AccountStore; children: ReactNode }) {
  return <AccountContext.Provider value={store}>{children}</AccountContext.Provider>;
}

export function useAccountStore(): AccountStore {
  const store = useContext(AccountContext);
  if (!store) throw new Error('useAccountStore() used outside <AccountProvider>');
  return store;
}
