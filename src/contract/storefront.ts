import { Type, type Static } from 'typebox';

/** Shapes the storefront reads that are not tables of an /api answer. */

const Open = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: true });
const NullableText = Type.Union([Type.String(), Type.Null()]);

/** GET /storefront-config.json, served beside the page: where the API is and which seller to show by default. */
export const DeploymentConfig = Type.Object(
  {
    apiBaseUrl: Type.String(),
    cachedApiBaseUrl: Type.String(),
    defaultSeller: Type.String(),
  },
  { additionalProperties: false },
);
export type DeploymentConfig = Static<typeof DeploymentConfig>;

export const MetadataFilterDef = Type.Object({
  key: Type.String(),
  label: Type.String(),
  options: Type.Optional(Type.Array(Type.String())),
});
export type MetadataFilterDef = Static<typeof MetadataFilterDef>;

/** The seller's feature flags (schemas/seller-config.schema.json `flags`); unset falls back to the older setting. */
export const FeatureFlags = Open({
  promo_field: Type.Optional(Type.Boolean()),
  upsells: Type.Optional(Type.Boolean()),
  extend_timer: Type.Optional(Type.Boolean()),
  membership_presell: Type.Optional(Type.Boolean()),
  /** the checkout's address lookup; GET config sends it decided: false unless the server has a provider too */
  address_lookup: Type.Optional(Type.Boolean()),
});
export type FeatureFlags = Static<typeof FeatureFlags>;

/**
 * The `storefront` entry of GET config: the seller's runtime config (schemas/seller-config.schema.json, which the
 * loader validates in full; keys replaced by ids). Only what the storefront reads is typed; the rest passes.
 */
export const StorefrontConfig = Open({
  admission_event_id: Type.Optional(NullableText),
  membership_event_id: Type.Optional(NullableText),
  membership_presell: Type.Optional(Type.Boolean()),
  home: Type.Optional(
    Open({
      enabled: Type.Optional(Type.Boolean()),
      target: Type.Optional(Type.String()),
      options_order: Type.Optional(Type.Array(Type.String())),
    }),
  ),
  redirect: Type.Optional(Open({ require_seller_prefix: Type.Optional(Type.Boolean()), target: Type.Optional(Type.String()) })),
  /** login method and its settings (src/domain/auth-config.ts) */
  auth: Type.Optional(
    Open({
      method: Type.Optional(Type.String()),
      external_login_url: Type.Optional(NullableText),
      external_logout_url: Type.Optional(NullableText),
      show_forgot_password: Type.Optional(Type.Boolean()),
      login_path: Type.Optional(Type.String()),
      invalid_credentials_text: Type.Optional(NullableText),
      /** sso and hosted: the OpenID Connect provider (issuer, client id, scope); the client secret stays on the server */
      oidc: Type.Optional(
        Type.Union([
          Open({ issuer: Type.Optional(Type.String()), client_id: Type.Optional(Type.String()), scope: Type.Optional(Type.String()) }),
          Type.Null(),
        ]),
      ),
    }),
  ),
  /** which account pages show (src/domain/account-pages.ts reads it) */
  my_account_pages: Type.Optional(Type.Unknown()),
  terms_html: Type.Optional(NullableText),
  /** a captcha for guests at checkout (issue 14): 'altcha', the built-in provider; unset or null: none */
  captcha_provider: Type.Optional(NullableText),
  web: Type.Optional(
    Open({
      show_venue_name: Type.Optional(Type.Boolean()),
      /** the promo code field at checkout (spec section 9) */
      show_promo_codes_on_checkout: Type.Optional(Type.Boolean()),
      extend_timer: Type.Optional(Type.Boolean()),
      reserve_flow: Type.Optional(Type.String()),
      primary_color: Type.Optional(Type.String()),
      logo: Type.Optional(NullableText),
      /** the completion page's background (image ids), for phones and for 26em and wider */
      completion_image: Type.Optional(Open({ mobile: Type.Optional(NullableText), desktop: Type.Optional(NullableText) })),
      event_filters: Type.Optional(
        Open({
          categories: Type.Optional(Type.Array(Type.String())),
          metadata: Type.Optional(Type.Array(MetadataFilterDef)),
        }),
      ),
    }),
  ),
  upsells: Type.Optional(Open({ enabled: Type.Optional(Type.Boolean()), skip: Type.Optional(Type.Boolean()) })),
  external_urls: Type.Optional(
    Open({
      logo: Type.Optional(NullableText),
      completed_order: Type.Optional(NullableText),
      membership: Type.Optional(NullableText),
    }),
  ),
  /** the event the checkout offers to add (its database id; upsell chains, issue 16) */
  checkout_upsell_id: Type.Optional(NullableText),
  /** the donation group the checkout offers (its database id) */
  checkout_donation_tg_id: Type.Optional(NullableText),
  /** the seller's default promo codes: the first goes on every new cart (apply_code_default, spec section 5) */
  default_promo_codes: Type.Optional(Type.Array(Type.String({ minLength: 2, maxLength: 35 }), { maxItems: 20 })),
  /** The layout registry (src/domain/layout.ts): per screen one list of sections, or lists by role. */
  layout: Type.Optional(
    Type.Record(
      Type.String(),
      Type.Union([
        Type.Array(Type.String()),
        Type.Partial(
          Type.Record(
            Type.Union([Type.Literal('anonymous'), Type.Literal('logged_in'), Type.Literal('member'), Type.Literal('default')]),
            Type.Array(Type.String()),
          ),
        ),
      ]),
    ),
  ),
  /** feature flags, polled while a page is open (src/domain/flags.ts; schema `flags`) */
  flags: Type.Optional(FeatureFlags),
  flags_poll_ms: Type.Optional(Type.Integer()),
  /** ecommerce events and the seller's tag manager (src/analytics/) */
  analytics: Type.Optional(
    Open({
      enabled: Type.Optional(Type.Boolean()),
      tag_manager_id: Type.Optional(NullableText),
      require_consent: Type.Optional(Type.Boolean()),
    }),
  ),
});
export type StorefrontConfig = Static<typeof StorefrontConfig>;
