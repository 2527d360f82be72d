import type { CalendarDayRow, SessionRow, TicketGroupRow, TicketTypeRow } from '../../src/contract/catalogue';
import type { ReservableEvent } from '../../src/api/events';

/** Whole wire rows of the catalogue (src/contract) for store tests: every field filled, the test's own in `over`. */

export const groupRow = (id: string, over: Partial<TicketGroupRow> = {}): TicketGroupRow => ({
  id,
  event_template_id: 'e1',
  name: id,
  description: null,
  summary: null,
  color: null,
  handler: 'tickets',
  hidden_type: 'public_browsable',
  _rank: 0,
  flexible: false,
  min_tickets_per_order: 0,
  max_tickets_per_order: 4,
  capacity: 60,
  oversell_capacity: 0,
  used_capacity: 0,
  available_capacity: 60,
  exclude_from_event_capacity: false,
  available: true,
  sales_start: null,
  sales_end: null,
  start_policy: null,
  start_policy_date: null,
  duration_new: null,
  additional_info_spec: null,
  meta: {},
  config: {},
  ...over,
});

export const typeRow = (id: string, groupId: string, over: Partial<TicketTypeRow> = {}): TicketTypeRow => ({
  id,
  name: id,
  _rank: 0,
  summary: null,
  description: null,
  currency_amount: '10.00',
  currency_amount_min: null,
  currency_amount_max: null,
  discounted_amount: null,
  outside_fees: [],
  ticket_group_id: groupId,
  event_template_category: 'admission',
  member_only: false,
  available: true,
  ...over,
});

export const sessionRow = (id: string, start: string, over: Partial<SessionRow> = {}): SessionRow => ({
  id,
  event_template_id: 'e1',
  start_datetime: start,
  end_datetime: start,
  capacity: 80,
  used_capacity: 0,
  oversell_capacity: 0,
  sold_out: false,
  availableCapacity: 80,
  minPrice: '10.00',
  price: '10.00',
  priceIncrease: '0.00',
  annotations: [],
  messages: [],
  ...over,
});

export const dayRow = (date: string, over: Partial<CalendarDayRow> = {}): CalendarDayRow => ({
  date,
  enabled: true,
  status: 'available',
  price: '10.00',
  min_price: '10.00',
  min_price_fees: { outside: null },
  pricePrefix: null,
  ...over,
});

/** What the reservation flow loads for an event (ReservationApi.getEvent): event 'e1' at venue 'v' in `timezone`, with
 *  the test's groups and types and no rules unless `over` gives them. */
export const reservableEvent = (
  timezone: string,
  groups: TicketGroupRow[],
  types: TicketTypeRow[],
  over: Partial<ReservableEvent> = {},
): ReservableEvent => ({
  event: {
    id: 'e1',
    seller_id: 's',
    name: 'GA',
    category: 'admission',
    subtitle: null,
    summary: null,
    description: null,
    event_type: 'repeating',
    hidden_type: 'public_browsable',
    venue_id: 'v',
    _rank: 0,
    metadata: {},
    next_session_start: null,
    meta: {},
  },
  venue: { id: 'v', name: 'Venue', timezone, address: {} },
  groups,
  types,
  messageRules: [],
  ticketRules: [],
  ...over,
});
