import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import { Binary, IdParams, Literals, NullableString, OrNull, Row, SellerRef, Uuid } from './primitives';
import { Table } from './tables';
import { ErrorBody } from './errors';
import { MANAGE_SIGNATURE_HEADER } from './manage-link';
import { ORDER_TOKEN_HEADER } from './urls';

/**
 * Wallet passes (issue 17; spec section 7: GET ticket/{id}/walletprecheck, ticket/{id}/pkpass, ticket/{id}/gwpass).
 * A ticket's pass is for whoever may see its order: the browser that bought it (its cookie), the logged-in owner, the
 * holder of the order's access token or of the e-mail's signed links. The pass links themselves carry a signature of
 * that one ticket (`sig`), so they work from the e-mail and from another device.
 */

export const WalletProvider = Literals('apple', 'google');
export type WalletProvider = Static<typeof WalletProvider>;

/** A pass link's signature: HMAC-SHA256 of the ticket id under the seller's secret, base64url. */
export const PassSignature = Type.String({ minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]{43}$' });

/** Why a ticket has no pass of a provider: the seller has no credentials for it, or the ticket admits nobody. */
export const WalletUnavailable = Literals('not_configured', 'not_admitting');

export const WalletPrecheckRow = Row({
  ticket_id: Uuid,
  provider: WalletProvider,
  ok: Type.Boolean(),
  /** why not, when `ok` is false */
  reason: OrNull(WalletUnavailable),
  /** the signature the pass links carry (`?sig=`), when `ok` */
  sig: NullableString({ pattern: '^[A-Za-z0-9_-]{43}$' }),
});
export type WalletPrecheckRow = Static<typeof WalletPrecheckRow>;

export const WalletPrecheckAnswer = Row({ wallet_precheck: Table(WalletPrecheckRow) });
export type WalletPrecheckAnswer = Static<typeof WalletPrecheckAnswer>;

const PassQuery = Type.Object({ _seller: Type.Optional(SellerRef), sig: Type.Optional(PassSignature) });
const PassHeaders = Type.Object({
  [ORDER_TOKEN_HEADER]: Type.Optional(Type.String({ maxLength: 64, pattern: '^[0-9a-f]*$' })),
  [MANAGE_SIGNATURE_HEADER]: Type.Optional(Type.String({ minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]+$' })),
});

/** The media type of an Apple Wallet pass. */
export const PKPASS_TYPE = 'application/vnd.apple.pkpass';

export const walletRoutes = {
  precheck: route({
    method: 'GET',
    url: '/ticket/:id/walletprecheck',
    schema: {
      summary:
        "Whether the ticket has an Apple Wallet and a Google Wallet pass: one row per provider (ok false with a reason when the seller has no credentials for it, or the ticket admits nobody), with the pass links' signature",
      tags: ['orders'],
      params: IdParams,
      querystring: PassQuery,
      headers: PassHeaders,
      response: answers(WalletPrecheckAnswer),
    },
  }),
  pkpass: route({
    method: 'GET',
    url: '/ticket/:id/pkpass',
    schema: {
      summary: "The ticket's Apple Wallet pass (.pkpass), signed with the seller's Pass Type ID certificate",
      tags: ['orders'],
      params: IdParams,
      querystring: PassQuery,
      headers: PassHeaders,
      response: { 200: Binary(PKPASS_TYPE, 'a signed Apple Wallet pass'), '4xx': ErrorBody, '5xx': ErrorBody },
      produces: [PKPASS_TYPE],
    },
  }),
  gwpass: route({
    method: 'GET',
    url: '/ticket/:id/gwpass',
    schema: {
      summary:
        "Redirects to Google Wallet's save link for the ticket: https://pay.google.com/gp/v/save/{JWT}, the JWT (RS256) signed with the seller's service-account key",
      tags: ['orders'],
      params: IdParams,
      querystring: PassQuery,
      headers: PassHeaders,
      response: { 302: Type.Null({ description: "to Google Wallet's save link (Location)" }), '4xx': ErrorBody, '5xx': ErrorBody },
    },
  }),
};

/** The address of a ticket's pass link, for the browser and the e-mail: `{apiBase}/ticket/{id}/pkpass?sig=...`. */
export function walletPassUrl(apiBaseUrl: string, ticketId: string, provider: WalletProvider, sig: string): string {
  const base = apiBaseUrl.endsWith('/') ? apiBaseUrl.slice(0, -1) : apiBaseUrl;
  return `${base}/ticket/${encodeURIComponent(ticketId)}/${provider === 'apple' ? 'pkpass' : 'gwpass'}?${new URLSearchParams({ sig })}`;
}
