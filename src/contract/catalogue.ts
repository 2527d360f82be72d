import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import {
  BoolFlag,
  DateOrDateTime,
  Embed,
  HiddenType,
  HiddenTypeList,
  IdParams,
  Instant,
  IsoDate,
  Json,
  JsonObject,
  Limit,
  Money,
  NullableInstant,
  Binary,
  Literals,
  NullableMoney,
  NullableString,
  OrNull,
  Offset,
  Query,
  Row,
  SafeText,
  TicketLines,
  TimeOfDay,
  Uuid,
  UuidList,
} from './primitives';
import { PER_TYPE_CAP } from './limits';
import { Table } from './tables';

/** The catalogue: seller config, events, sessions, calendar, groups, images and form validators (spec section 7). */

// ---- rows (spec section 3) ----

export const SellerRow = Row({
  id: Uuid,
  slug: Type.String(),
  name: Type.String(),
  currency: Type.String(),
  timezone: Type.String(),
  locale: Type.String(),
});
export type SellerRow = Static<typeof SellerRow>;

export const ConfigKey = Literals('storefront', 'strings', 'content_blocks', 'payments');
/**
 * One runtime config entry: the storefront config (schemas/seller-config.schema.json), string overrides, content blocks,
 * or `payments` ({ gateway: 'test' | 'stripe', publishable_key? }: the card gateway, and Stripe's publishable key when set).
 */
export const ConfigRow = Row({ resource_id: Uuid, key: ConfigKey, value: Json });
export type ConfigRow = Static<typeof ConfigRow>;

export const VenueRow = Row({ id: Uuid, name: Type.String(), timezone: Type.String(), address: Json });
export type VenueRow = Static<typeof VenueRow>;

/** Seller JSON the storefront reads by key: the keys it knows are typed, any other passes through. */
const Open = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: true });

/** Event meta (spec section 3): images, reserve flow, admit names and e-mails, ... */
export const EventMeta = Open({
  image_profile: Type.Optional(NullableString()),
  image_cover: Type.Optional(NullableString()),
  image_profile_alt: Type.Optional(NullableString()),
  image_cover_alt: Type.Optional(NullableString()),
  reserve_flow: Type.Optional(Literals('date_first', 'quantity_first')),
  admit_names: Type.Optional(Type.String()),
  admit_emails: Type.Optional(Type.String()),
});
export type EventMeta = Static<typeof EventMeta>;

/** Session picker tab boundaries (spec section 9: "HHmm" over 0000 to 2400). */
export const SessionPickerTabs = Open({
  first_tab_threshold: Type.Optional(Type.String()),
  second_tab_threshold: Type.Optional(Type.String()),
  third_tab_threshold: Type.Optional(Type.String()),
  labels: Type.Optional(Type.Array(Type.String())),
});
/** Event config (spec section 3: config.web). */
export const EventConfig = Open({
  web: Type.Optional(
    Open({
      session_picker_tabs: Type.Optional(SessionPickerTabs),
      hide_sold_out_sessions: Type.Optional(Type.Boolean()),
      /** CityPASS code forms (src/domain/citypass.ts) */
      citypass: Type.Optional(
        Open({
          adult_pattern: Type.Optional(Type.String()),
          child_pattern: Type.Optional(Type.String()),
          child_keywords: Type.Optional(Type.Array(Type.String())),
        }),
      ),
    }),
  ),
});
export type EventConfig = Static<typeof EventConfig>;

/** A group's survey (spec section 3 survey spec): properties by name and the required list. */
export const SurveySpec = Open({
  type: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  properties: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()))),
  required: Type.Optional(Type.Array(Type.String())),
});
export type SurveySpec = Static<typeof SurveySpec>;

export const AdmitSettingValue = Literals('disabled', 'optional', 'required');
/** Group meta: who is named and e-mailed per ticket, and other seller settings. */
export const GroupMeta = Open({ admit_names: Type.Optional(AdmitSettingValue), admit_emails: Type.Optional(AdmitSettingValue) });

export const EventType = Literals('single', 'repeating', 'other');

export const EventTemplateRow = Row({
  id: Uuid,
  seller_id: Uuid,
  name: Type.String(),
  category: Type.String(),
  subtitle: NullableString(),
  summary: NullableString(),
  description: NullableString(),
  event_type: EventType,
  hidden_type: HiddenType,
  venue_id: NullableString(),
  _rank: Type.Integer(),
  metadata: JsonObject,
  next_session_start: NullableInstant,
  /** with `_embed=meta` */
  meta: Type.Optional(EventMeta),
  /** with `_embed=config`: config.web (price display, session picker tabs, ...) */
  config: Type.Optional(EventConfig),
});
export type EventTemplateRow = Static<typeof EventTemplateRow>;

/** An outside fee: its amount at the type's list price, and its rule (a fixed amount plus a percentage of the value
 *  charged), so a storefront can work it out for any price the shopper picks (issue 16's running subtotal). */
export const OutsideFeeRow = Row({
  name: Type.String(),
  fee: Money,
  fixed: Type.Optional(Money),
  percent: Type.Optional(Type.Number({ minimum: 0 })),
});

export const TicketTypeRow = Row({
  id: Uuid,
  name: Type.String(),
  _rank: Type.Integer(),
  summary: NullableString(),
  description: NullableString(),
  currency_amount: Money,
  /** flexible price when both are set */
  currency_amount_min: NullableMoney,
  currency_amount_max: NullableMoney,
  discounted_amount: NullableMoney,
  outside_fees: Type.Array(OutsideFeeRow),
  ticket_group_id: Uuid,
  event_template_category: Type.String(),
  member_only: Type.Boolean(),
  available: Type.Boolean(),
});
export type TicketTypeRow = Static<typeof TicketTypeRow>;

export const Handler = Literals('tickets', 'passes', 'codes', 'seated', 'ledger', 'donation', 'membership', 'citypass');

export const TicketGroupRow = Row({
  id: Uuid,
  event_template_id: Uuid,
  name: Type.String(),
  description: NullableString(),
  summary: NullableString(),
  color: NullableString(),
  handler: Type.String(),
  hidden_type: Type.String(),
  _rank: Type.Integer(),
  /** any-date admission: sold without a session */
  flexible: Type.Boolean(),
  min_tickets_per_order: Type.Integer(),
  max_tickets_per_order: Type.Integer(),
  /** -1: unlimited */
  capacity: Type.Integer(),
  oversell_capacity: Type.Integer(),
  used_capacity: Type.Integer(),
  available_capacity: Type.Integer(),
  exclude_from_event_capacity: Type.Boolean(),
  available: Type.Boolean(),
  sales_start: NullableInstant,
  sales_end: NullableInstant,
  start_policy: NullableString(),
  start_policy_date: NullableInstant,
  duration_new: NullableString(),
  /** the group's survey (spec section 3: properties and required) */
  additional_info_spec: OrNull(SurveySpec),
  meta: GroupMeta,
  config: JsonObject,
});
export type TicketGroupRow = Static<typeof TicketGroupRow>;

export const TicketRuleRow = Row({
  id: Uuid,
  ticket_group_id: Uuid,
  ticket_type_id: NullableString(),
  party_role: Type.String(),
  named: Literals('yes', 'no', 'optional'),
  emailed: Type.Boolean(),
  min: Type.Integer(),
  max: Type.Integer(),
});
export type TicketRuleRow = Static<typeof TicketRuleRow>;

/** Triggers and actions in either of the forms src/domain/message-rules.ts reads. */
export const MessageRuleRow = Row({ id: Uuid, event_template_id: Uuid, _rank: Type.Integer(), triggers: Json, actions: Json });
export type MessageRuleRow = Static<typeof MessageRuleRow>;

export const SessionRow = Row({
  id: Uuid,
  event_template_id: Uuid,
  start_datetime: Instant,
  end_datetime: Instant,
  /** -1: unlimited */
  capacity: Type.Integer(),
  used_capacity: Type.Integer(),
  oversell_capacity: Type.Integer(),
  sold_out: Type.Boolean(),
  /** capacity + oversell - used; -1 unlimited */
  availableCapacity: Type.Integer(),
  minPrice: NullableMoney,
  price: NullableMoney,
  priceIncrease: Money,
  annotations: Type.Array(Type.String()),
  messages: Type.Array(Type.String()),
});
export type SessionRow = Static<typeof SessionRow>;

/** POST events/{id}/sessions: the price of each asked type at each session. */
export const PriceScheduleRow = Row({
  event_session_id: Uuid,
  ticket_type_id: Uuid,
  ticket_group_id: Uuid,
  quantity: Type.Integer(),
  currency_amount: Money,
  unit_amount: Money,
  total_amount: Money,
});
export type PriceScheduleRow = Static<typeof PriceScheduleRow>;

export const CalendarStatus = Literals('available', 'sold_out', 'unavailable');

export const CalendarDayRow = Row({
  date: IsoDate,
  enabled: Type.Boolean(),
  status: CalendarStatus,
  price: NullableMoney,
  min_price: NullableMoney,
  min_price_fees: Row({ outside: NullableMoney }),
  pricePrefix: NullableString(),
  /** `_format=extended` only, from here on */
  availability: Type.Optional(Row({ capacity: Type.Integer(), used_capacity: Type.Integer() })),
  badges: Type.Optional(Type.Array(Type.String())),
  annotations: Type.Optional(Type.Array(Type.String())),
  tooltip: Type.Optional(Type.Array(Type.String())),
  ariaLabel: Type.Optional(Type.String()),
});
export type CalendarDayRow = Static<typeof CalendarDayRow>;

// ---- answers ----

export const ConfigAnswer = Row({ seller: Table(SellerRow), config: Table(ConfigRow) });
export type ConfigAnswer = Static<typeof ConfigAnswer>;

/** An event listing or detail with what `_embed` asked for. */
export const EventsAnswer = Row({
  event_template: Table(EventTemplateRow),
  venue: Type.Optional(Table(VenueRow)),
  ticket_group: Type.Optional(Table(TicketGroupRow)),
  ticket_type: Type.Optional(Table(TicketTypeRow)),
  ticket_rule: Type.Optional(Table(TicketRuleRow)),
  message_rule: Type.Optional(Table(MessageRuleRow)),
  event_session: Type.Optional(Table(SessionRow)),
});
export type EventsAnswer = Static<typeof EventsAnswer>;

export const PricecheckAnswer = Row({ ticket_type: Table(TicketTypeRow), ticket_group: Table(TicketGroupRow) });
export type PricecheckAnswer = Static<typeof PricecheckAnswer>;

export const SessionsAnswer = Row({
  event_session: Table(SessionRow),
  price_schedule: Type.Optional(Table(PriceScheduleRow)),
  venue: Type.Optional(Table(VenueRow)),
  ticket_group: Type.Optional(Table(TicketGroupRow)),
  ticket_type: Type.Optional(Table(TicketTypeRow)),
});
export type SessionsAnswer = Static<typeof SessionsAnswer>;

export const CalendarAnswer = Row({ calendar: Table(CalendarDayRow) });
export type CalendarAnswer = Static<typeof CalendarAnswer>;

export const TicketGroupAnswer = Row({ ticket_group: Table(TicketGroupRow), ticket_type: Type.Optional(Table(TicketTypeRow)) });
export type TicketGroupAnswer = Static<typeof TicketGroupAnswer>;

// ---- routes ----

const sessionListQuery = Query({
  _limit: Limit,
  _offset: Offset,
  _sort: Type.Union([Type.Literal('start_datetime'), Type.Literal('-start_datetime')]),
  _embed: Embed,
  sold_out: BoolFlag,
  _include_sold_out: BoolFlag,
  'start_datetime._gte': DateOrDateTime,
  'start_datetime._lt': DateOrDateTime,
  'start_datetime._ondate': IsoDate,
  'ticket_group_id._in': UuidList,
  'ticket_group.id._in': UuidList,
});

const calendarQuery = Query({
  _format: Type.Union([Type.Literal('price'), Type.Literal('extended')]),
  'ticket_group_id._in': UuidList,
  start_date: IsoDate,
  end_date: IsoDate,
});

export const catalogueRoutes = {
  config: route({
    method: 'GET',
    url: '/config',
    schema: {
      summary: 'The seller and its runtime config (storefront config, string overrides, content blocks)',
      tags: ['catalogue'],
      querystring: Query({ 'key._in': Type.String({ maxLength: 200, pattern: '^[a-z_]+(,[a-z_]+)*$' }), 'resource_id._in': UuidList }),
      response: answers(ConfigAnswer),
    },
  }),
  eventsAvailable: route({
    method: 'GET',
    url: '/events/available',
    schema: {
      summary: 'Events with something to sell in a range (an active session, or a group sold without sessions)',
      tags: ['catalogue'],
      querystring: Query(
        {
          'hidden_type._in': HiddenTypeList,
          hidden_type: HiddenTypeList,
          category: SafeText,
          'category._in': SafeText,
          'start_datetime._gte': DateOrDateTime,
          'start_datetime._lt': DateOrDateTime,
          'time.start': TimeOfDay,
          'time.end': TimeOfDay,
          _embed: Embed,
          includeSessions: BoolFlag,
          _limit: Limit,
          _offset: Offset,
          _sort: Literals('_rank', '-_rank', 'name', '-name', 'start', '-start'),
        },
        { patternProperties: { '^metadata\\.': SafeText } },
      ),
      response: answers(EventsAnswer),
    },
  }),
  event: route({
    method: 'GET',
    url: '/events/:id',
    schema: {
      summary: 'One event (any hidden type but hidden) and what `_embed` asks for',
      tags: ['catalogue'],
      params: IdParams,
      querystring: Query({ _embed: Embed, 'ticket_group_id._in': UuidList, 'hidden_type._in': HiddenTypeList }),
      response: answers(EventsAnswer),
    },
  }),
  pricecheck: route({
    method: 'POST',
    url: '/events/:id/pricecheck',
    schema: {
      summary: 'The asked ticket types of an event with their groups',
      tags: ['catalogue'],
      params: IdParams,
      querystring: Query({}),
      body: Type.Object({ ticket_types_required: Type.Array(Uuid, { maxItems: 100 }) }),
      response: answers(PricecheckAnswer),
    },
  }),
  sessions: route({
    method: 'GET',
    url: '/events/:id/sessions',
    schema: {
      summary: 'Future active sessions of an event; sold-out ones only when asked',
      tags: ['catalogue'],
      params: IdParams,
      querystring: sessionListQuery,
      response: answers(SessionsAnswer),
    },
  }),
  sessionsForQuantities: route({
    method: 'POST',
    url: '/events/:id/sessions',
    schema: {
      summary: "Sessions where the given quantities fit, with each session's prices",
      tags: ['catalogue'],
      params: IdParams,
      querystring: sessionListQuery,
      body: Type.Object({ tickets: TicketLines }),
      response: answers(SessionsAnswer),
    },
  }),
  session: route({
    method: 'GET',
    url: '/events/:id/sessions/:sid',
    schema: {
      summary: "One session; with group ids or `_embed=ticket_group`, the groups' figures at that session",
      tags: ['catalogue'],
      params: Type.Object({ id: Uuid, sid: Uuid }),
      querystring: Query({ _embed: Embed, 'ticket_group_id._in': UuidList, 'hidden_type._in': HiddenTypeList }),
      response: answers(SessionsAnswer),
    },
  }),
  calendar: route({
    method: 'GET',
    url: '/events/:id/calendar',
    schema: {
      summary: 'One row per venue-local date: status, prices and (extended) availability, badges, annotations',
      tags: ['catalogue'],
      params: IdParams,
      querystring: calendarQuery,
      response: answers(CalendarAnswer),
    },
  }),
  calendarForQuantities: route({
    method: 'POST',
    url: '/events/:id/calendar',
    schema: {
      summary: 'The calendar for a selection of tickets: a day is available when the whole selection fits',
      tags: ['catalogue'],
      params: IdParams,
      querystring: calendarQuery,
      // The 10-distinct-types rule answers with its own message (context event_calendar): the schema only bounds the list.
      body: Type.Object({
        tickets: Type.Array(
          Type.Object(
            {
              ticket_type_id: Uuid,
              quantity: Type.Integer({ minimum: 1, maximum: PER_TYPE_CAP }),
            },
            { additionalProperties: false },
          ),
          { maxItems: 100 },
        ),
      }),
      response: answers(CalendarAnswer),
    },
  }),
  eventTemplates: route({
    method: 'GET',
    url: '/event_template',
    schema: {
      summary: 'Event templates by id or category, whatever their sessions',
      tags: ['catalogue'],
      querystring: Query({
        'id._in': UuidList,
        category: SafeText,
        'category._in': SafeText,
        'hidden_type._in': HiddenTypeList,
        _embed: Embed,
        _limit: Limit,
        _offset: Offset,
      }),
      response: answers(Row({ event_template: Table(EventTemplateRow), venue: Type.Optional(Table(VenueRow)) })),
    },
  }),
  ticketGroup: route({
    method: 'GET',
    url: '/ticket_group/:id',
    schema: {
      summary: 'One ticket group with its counters; its types with `_embed=ticket_type`',
      tags: ['catalogue'],
      params: IdParams,
      querystring: Query({ _embed: Embed }),
      response: answers(TicketGroupAnswer),
    },
  }),
  image: route({
    method: 'GET',
    url: '/image/:imageId',
    schema: {
      summary: 'A catalogue image by id (immutable)',
      tags: ['catalogue'],
      params: Type.Object({ imageId: Uuid }),
      // Size hints of spec section 9 (teaser 272x216 at double size, cover 1500 wide); images are SVG for now.
      querystring: Query({
        sizex: Type.Integer({ minimum: 1, maximum: 10000 }),
        sizey: Type.Integer({ minimum: 1, maximum: 10000 }),
        shrinkonly: BoolFlag,
      }),
      response: {
        200: Binary('image/*', 'the image'),
        304: Type.Null({ description: 'not modified (If-None-Match)' }),
        '4xx': answers(Type.Null())['4xx'],
      },
      produces: ['image/svg+xml', 'image/png', 'image/jpeg', 'image/webp'],
    },
  }),
  formValidator: route({
    method: 'GET',
    url: '/form_validator/:key',
    schema: {
      summary: "A storefront form's validators, compiled ahead of time, as an ES module",
      tags: ['catalogue'],
      params: Type.Object({ key: Type.String({ pattern: '^[A-Za-z0-9._-]{1,100}$' }) }),
      response: { 200: Binary('text/javascript', 'an ES module'), '4xx': answers(Type.Null())['4xx'] },
      produces: ['text/javascript'],
    },
  }),
};
