/**
 * GET cart answers for store unit tests (the fake API of fake-api.ts replies with them), and a Web Storage in memory.
 */

/** A cart item as the cart answer shows it (spec section 3, "Cart item (display)"). */
export function item(
  id: string,
  opts: {
    isAnchor?: boolean;
    isDependency?: boolean;
    ticketIds?: string[];
    count?: number;
    name?: string;
    eventId?: string;
    sessionId?: string | null;
    start?: string | null;
    end?: string | null;
    /** tickets by type name; default `count` Adult */
    types?: Array<{ name: string; count: number }>;
  } = {},
) {
  return {
    id,
    name: opts.name ?? `Event ${id}`,
    event_template_id: opts.eventId ?? id,
    event_session_id: opts.sessionId ?? null,
    start_datetime: opts.start ?? null,
    end_datetime: opts.end ?? null,
    category: 'admission',
    pad_pre_start: null,
    pad_post_end: null,
    image_url: null,
    image_alt: '',
    types: (opts.types ?? [{ name: 'Adult', count: opts.count ?? 2 }]).map((t, i) => ({
      ticket_type_id: i === 0 ? 'tt' : `tt${i}`,
      ticket_type_name: t.name,
      ticket_group_name: 'G',
      ticketCount: t.count,
      totalPrice: '48.00',
    })),
    isAnchor: opts.isAnchor ?? false,
    isDependency: opts.isDependency ?? false,
    isMembershipEvent: false,
    ticketIds: opts.ticketIds ?? [`${id}-t1`],
    seats: [],
  };
}

export function cartBody(
  id: string,
  opts: {
    expiresIn?: number | null;
    state?: string;
    items?: ReturnType<typeof item>[];
    outstanding?: string;
    extended?: boolean;
    orders?: string[];
    gateway?: string;
  } = {},
) {
  return {
    status: 200,
    data: {
      cart: {
        _count: 1,
        _data: [
          {
            id,
            cart_number: '7',
            state: opts.state ?? 'pending',
            seller_id: 's',
            expires_at: '2030-01-01T00:00:00Z',
            expires_in: opts.expiresIn === undefined ? 900 : opts.expiresIn,
            extended_at: opts.extended ? '2030-01-01T00:00:00Z' : null,
            cart_fees: {
              gateway_id: opts.gateway ?? 'test',
              account_id: 's',
              grand_totals: {
                total_before_cartmod_price: '60.00',
                total_fee_fixed_outside: '3.00',
                total_fee_percent_outside: '0.00',
                total_cartmod_amount: '0.00',
                total_payments: '0.00',
                total_outstanding: opts.outstanding ?? '63.00',
              },
            },
            items: opts.items ?? [item('a')],
            ticket_order_ids: opts.orders ?? [],
          },
        ],
      },
      ticket: { _count: 0, _data: [] },
    },
  };
}

export function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    map,
  };
}
