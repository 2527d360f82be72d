import type { Schedule, Weekday } from '../../src/domain/schedule';

/** The shape of catalog.json (schemas/catalog.schema.json is the authority; these mirror it for the loader). */
export type AdmitSetting = 'disabled' | 'optional' | 'required';
export type HiddenType = 'public_browsable' | 'public_member_only' | 'public_link_only' | 'hidden';

export interface CatalogFile {
  venues: CatalogVenue[];
  images?: Array<{ key: string; alt: string }>;
  seat_maps?: CatalogSeatMap[];
  events: CatalogEvent[];
  membership?: { programs?: Array<{ key: string; name: string; rank?: number }>; roles?: CatalogRole[] };
  cart_mods?: CatalogCartMod[];
  gift_cards?: Array<{ number: string; balance: string; state?: string; ledger_type?: string }>;
  members?: CatalogMember[];
}
export interface CatalogVenue {
  key: string;
  name: string;
  timezone: string;
  address?: Record<string, string>;
}
export interface SeatSection {
  key: string;
  name: string;
  rows: string[];
  seats_per_row: number;
  origin: { x: number; y: number };
  seat_spacing?: number;
  row_spacing?: number;
  radius?: number;
  row_offset?: number;
  unavailable?: string[];
  ticket_groups?: string[];
}
export interface CatalogSeatMap {
  key: string;
  name: string;
  width: number;
  height: number;
  other_elements?: string;
  sections: SeatSection[];
}
export interface CatalogEvent {
  key: string;
  name: string;
  category?: string;
  subtitle?: string;
  summary?: string;
  description?: string;
  event_type: 'single' | 'repeating' | 'other';
  hidden_type?: HiddenType;
  venue?: string;
  seat_map?: string;
  metadata?: Record<string, string>;
  meta?: Record<string, any>;
  config?: { web?: { price_display?: Record<string, string>; [k: string]: unknown } };
  upsell?: { requires_anchor?: boolean; anchor_events?: string[]; anchor_categories?: string[] };
  ticket_groups: CatalogGroup[];
  message_rules?: CatalogMessageRule[];
  schedules?: Schedule[];
}
export interface CatalogGroup {
  key: string;
  name: string;
  summary?: string;
  description?: string;
  color?: string;
  handler: string;
  hidden_type?: HiddenType;
  min_tickets_per_order?: number;
  max_tickets_per_order?: number;
  capacity?: number;
  oversell?: number;
  exclude_from_event_capacity?: boolean;
  flexible?: boolean;
  sales_start?: string;
  sales_end?: string;
  start_policy?: string;
  start_policy_date?: string;
  duration_new?: string;
  additional_info_spec?: Record<string, any>;
  meta?: { admit_names?: AdmitSetting; admit_emails?: AdmitSetting; extra_checkout_fields?: string[]; valid_weekdays?: Weekday[] };
  types: CatalogType[];
  rules?: CatalogTicketRule[];
}
export interface CatalogType {
  key: string;
  name: string;
  summary?: string;
  description?: string;
  price: string;
  price_min?: string;
  price_max?: string;
  discounted_price?: string;
  member_only?: boolean;
  outside_fees?: Array<{ name: string; fixed?: string; percent?: number }>;
}
export interface CatalogTicketRule {
  ticket_type?: string;
  party_role?: string;
  named?: 'yes' | 'no' | 'optional';
  emailed?: boolean;
  min?: number;
  max?: number;
}
export interface CatalogMessageRule {
  triggers: {
    dateOrSession?: { dateInterval?: { from?: string; to?: string }; weekdays?: Weekday[]; time_of_day?: { start?: string; end?: string } };
    quantity?: {
      ticket_groups?: string[];
      ticket_group_names?: string[];
      ticket_types?: string[];
      ticket_type_names?: string[];
      min?: number;
      max?: number;
    };
  };
  actions: Array<{ type: string; text: string; level?: string }>;
}
export interface CatalogRole {
  key: string;
  name: string;
  program: string;
  rank?: number;
  ticket_type: string;
  duration_months?: number;
  giftable?: boolean;
  auto_renew?: boolean;
  member_event_purchase_limit?: number;
  benefits?: Array<{ ticket_type: string; quantity: number; price?: string }>;
  rules?: Array<{ ticket_type?: string; ticket_group?: string; party_role?: string; named?: 'yes' | 'no'; min?: number; max?: number }>;
}
export interface CatalogCartMod {
  key: string;
  name: string;
  discount_type: 'percent' | 'amount' | 'price';
  discount: string;
  ticket_types?: string[];
  blocking_checkout?: boolean;
  activating_code_groups?: string[];
  codes?: Array<{
    code: string;
    code_group?: string;
    max_usage?: number;
    valid_from?: string;
    valid_to?: string;
    advertise?: boolean;
    is_default?: boolean;
  }>;
}
export interface CatalogMember {
  email: string;
  first_name: string;
  last_name: string;
  phone?: string;
  zip_code?: string;
  city?: string;
  state?: string;
  country?: string;
  password?: string;
  membership?: {
    role: string;
    scan_code: string;
    valid_from: string;
    valid_to: string;
    auto_renew_state?: 'scheduled' | 'cancelled' | 'other';
  };
}

/** A content block as stored in seller.content_blocks. */
export interface ContentBlockDef {
  name: string;
  slot: 'top' | 'bottom';
  routes: string[];
  roles: string[];
  order: number;
  html: string;
}

/** An image file read from images/. */
export interface ImageFile {
  key: string;
  file: string;
  contentType: string;
  data: Buffer;
  sha256: string;
  width: number | null;
  height: number | null;
}

/** Everything read from a seller folder, schema-valid, before keys are resolved. */
export interface SellerFolder {
  dir: string;
  config: Record<string, any>;
  catalog: CatalogFile;
  strings: Record<string, string>;
  contentBlocks: ContentBlockDef[];
  images: ImageFile[];
  /** staff.json: support staff who may preview the storefront (issue 18); passwords as hashes only */
  staff: StaffDef[];
}

export interface StaffDef {
  email: string;
  name: string;
  password_hash: string;
}
