/** Spec section 2: the sidebar's pages gated by config my_account_pages (all when the list is absent). */
export type AccountPage = 'my_profile' | 'upcoming_events' | 'recent_orders';
export const ACCOUNT_PAGES: AccountPage[] = ['my_profile', 'upcoming_events', 'recent_orders'];
export function enabledAccountPages(config: unknown): Set<AccountPage> {
  if (!Array.isArray(config)) return new Set(ACCOUNT_PAGES);
  return new Set(ACCOUNT_PAGES.filter((p) => config.includes(p)));
}
