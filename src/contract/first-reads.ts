/**
 * The public reads a landing page makes first, described once for the storefront (api/config.ts, api/events.ts)
 * and for the server, which answers them inside the page it sends (server/http/index-html.ts) so the phone does
 * not wait for them one after another once the scripts have run. Public catalogue reads, the same for every visitor,
 * and the checkout's cart, which the server reads with the page request's own cookies (the page is then not stored).
 */
export interface Read {
  path: string;
  params: Record<string, string>;
}

export const CONFIG_KEYS = ['storefront', 'strings', 'content_blocks'] as const;

export const configRead = (): Read => ({ path: 'config', params: { 'key._in': CONFIG_KEYS.join(',') } });

export const availableEventsRead = (filterParams: Record<string, string>): Read => ({
  path: 'events/available',
  params: { 'hidden_type._in': 'public_browsable', _embed: 'venue,meta', ...filterParams },
});

export const eventRead = (eventId: string): Read => ({
  path: `events/${encodeURIComponent(eventId)}`,
  params: { _embed: 'venue,meta' },
});

export const reservableEventRead = (eventId: string): Read => ({
  path: `events/${encodeURIComponent(eventId)}`,
  params: { _embed: 'ticket_group,ticket_type,message_rule,ticket_rule,meta,config,venue' },
});

/** The event detail's dated calendar (api/events.ts getCalendar) for the groups it asks about. */
export const calendarRead = (eventId: string, groupIds?: string[]): Read => ({
  path: `events/${encodeURIComponent(eventId)}/calendar`,
  params: { _format: 'extended', ...(groupIds?.length ? { 'ticket_group_id._in': groupIds.join(',') } : {}) },
});

/** The cart as the checkout reads it (api/cart.ts getCart); private to its owner. */
export const cartRead = (cartId: string): Read => ({ path: `cart/${encodeURIComponent(cartId)}`, params: { _embed: 'venue' } });

/**
 * One spelling of a read's address, whoever wrote it: the path with its query parameters sorted and decoded
 * (axios leaves commas bare, URLSearchParams encodes them). `url` may be relative ('/api/config?...').
 */
export function readKey(url: string): string {
  const parsed = new URL(url, 'http://x');
  const params = [...parsed.searchParams].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  return `${parsed.pathname}?${params.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

/** The address of a read for one seller under an API base ('/api'), as the storefront's client sends it. */
export function readUrl(apiBaseUrl: string, seller: string, read: Read): string {
  const base = apiBaseUrl.endsWith('/') ? apiBaseUrl : `${apiBaseUrl}/`;
  return `${base}${read.path}?${new URLSearchParams({ _seller: seller, ...read.params })}`;
}

/** What the server puts in the page (a JSON data block, never run as script): where the API is, and the answers
 *  to the page's first reads, keyed by readKey. */
export interface BootData {
  deployment: { apiBaseUrl: string; cachedApiBaseUrl: string; defaultSeller: string };
  reads: Record<string, unknown>;
  /** The route the page shows first when it is not the address itself (the home route's admission event), without
   *  the seller prefix: the boot downloads that screen's code early. */
  landing?: string;
}

export const BOOT_DATA_ID = 'boot-data';
