import type { Deps } from '../../deps';
import type { WalletPrecheckRow, WalletProvider } from '../../../src/contract/wallet';
import { walletPassUrl } from '../../../src/contract/wallet';
import { DomainError, notFound } from '../errors';
import { isUuid, type Caller } from '../cart/access';
import { mayReadOrder } from '../orders';
import { holdsManageLink, secretOf, signTicketPass, verifyOrderSignature } from '../manage-link';
import { mailStrings } from '../order-mail/strings';
import { brandColorOf } from '../brand';
import { walletOf, type WalletCredentials } from './credentials';
import { applePass } from './apple';
import { googleSaveUrl } from './google';
import type { PassInfo } from './pass-info';

/**
 * Wallet passes (issue 17): an Apple Wallet pass and a Google Wallet save link for each admitting ticket, when the
 * seller's wallet file (WALLET_CONFIG) has credentials for that provider. A pass is for whoever may see the ticket's
 * order: the owner of its cart (cookie or logged-in identity), the logged-in identity that bought it, the holder of the
 * order's access token or its e-mail's manage link, or the holder of the ticket's own pass link (`sig`: a signature of
 * that ticket only, which manages nothing). Anyone else gets the 404 of a ticket that does not exist.
 */

/** What proves the visitor's right to a ticket besides the cookies: the order's access token, the manage link's
 *  signature (headers), the pass link's signature (`sig`). */
export interface PassProof {
  accessToken?: string;
  manageSignature?: string;
  passSignature?: string;
}

/** Tickets that admit someone have passes: booked or redeemed, with a scan code, not a gift card, donation or membership. */
const ADMITTING_STATES = new Set(['booked', 'redeemed']);
const NO_PASS_HANDLERS = new Set(['ledger', 'donation', 'membership']);

async function passTicket(deps: Deps, ticketId: string, caller: Caller, proof: PassProof) {
  if (!isUuid(ticketId)) throw notFound('ticket', ticketId);
  const row = await deps.db
    .selectFrom('ticket')
    .innerJoin('ticket_order', 'ticket_order.id', 'ticket.ticket_order_id')
    .innerJoin('seller', 'seller.id', 'ticket.seller_id')
    .innerJoin('ticket_type', 'ticket_type.id', 'ticket.ticket_type_id')
    .innerJoin('event_template', 'event_template.id', 'ticket.event_template_id')
    .leftJoin('event_session', 'event_session.id', 'ticket.event_session_id')
    .leftJoin('venue', 'venue.id', 'event_template.venue_id')
    .leftJoin('seat', 'seat.id', 'ticket.seat_id')
    .select([
      'ticket.id',
      'ticket.state',
      'ticket.handler',
      'ticket.scan_code',
      'ticket.ticket_order_id',
      'ticket.admit_name',
      'seller.slug',
      'seller.name as seller_name',
      'seller.config',
      'seller.strings',
      'seller.timezone',
      'ticket_type.name as type_name',
      'event_template.id as event_id',
      'event_template.name as event_name',
      'event_session.start_datetime',
      'event_session.end_datetime',
      'venue.name as venue_name',
      'venue.timezone as venue_tz',
      'venue.address as venue_address',
      'seat.section',
      'seat.row_label',
      'seat.number',
      'seat.name as seat_name',
    ])
    .where('ticket.id', '=', ticketId)
    .executeTakeFirst();
  if (!row) throw notFound('ticket', ticketId);
  const order = await deps.db.selectFrom('ticket_order').selectAll().where('id', '=', row.ticket_order_id!).executeTakeFirstOrThrow();
  const allowed =
    (proof.passSignature !== undefined &&
      verifyOrderSignature(await secretOf(deps.db, order.seller_id), ticketId, proof.passSignature, 'pass')) ||
    (caller.identityId !== null && caller.identityId === order.identity_id) ||
    (await holdsManageLink(deps.db, order, proof.manageSignature)) ||
    (await mayReadOrder(deps, order, caller, proof.accessToken));
  if (!allowed) throw notFound('ticket', ticketId);
  const admitting = ADMITTING_STATES.has(row.state) && !!row.scan_code && !NO_PASS_HANDLERS.has(row.handler);
  return { row, order, admitting };
}

type Loaded = Awaited<ReturnType<typeof passTicket>>;

const providers: readonly WalletProvider[] = ['apple', 'google'];
const configured = (creds: WalletCredentials, provider: WalletProvider) => (provider === 'apple' ? !!creds.apple : !!creds.google);

/** GET ticket/{id}/walletprecheck: a row per provider, `ok` with the pass links' signature, else why not. */
export async function walletPrecheck(deps: Deps, ticketId: string, caller: Caller, proof: PassProof): Promise<WalletPrecheckRow[]> {
  const { row, order, admitting } = await passTicket(deps, ticketId, caller, proof);
  const creds = walletOf(deps.config, row.slug);
  const secret = await secretOf(deps.db, order.seller_id);
  return providers.map((provider) => {
    const reason = !configured(creds, provider) ? 'not_configured' : !admitting ? 'not_admitting' : null;
    return { ticket_id: ticketId, provider, ok: reason === null, reason, sig: reason === null ? signTicketPass(secret, ticketId) : null };
  });
}

/** The ticket's pass details, refused when the seller has no credentials for the provider or the ticket admits nobody. */
async function passInfo(deps: Deps, loaded: Loaded, provider: WalletProvider): Promise<{ info: PassInfo; creds: WalletCredentials }> {
  const { row, order, admitting } = loaded;
  const creds = walletOf(deps.config, row.slug);
  if (!configured(creds, provider))
    throw new DomainError('wallet_not_configured', 'This seller offers no passes of that wallet.', 'wallet', { provider });
  if (!admitting)
    throw new DomainError('ticket_state_incorrect', 'This ticket admits nobody.', 'wallet', { ticket_id: row.id, state: row.state });
  const address = (row.venue_address ?? {}) as Record<string, unknown>;
  const addressLine = ['line1', 'line2', 'city', 'state', 'zip_code', 'country']
    .map((k) => address[k])
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .join(', ');
  const info: PassInfo = {
    ticketId: row.id,
    scanCode: row.scan_code!,
    orderNumber: String(order.order_number),
    seller: { slug: row.slug, name: row.seller_name },
    brandColor: brandColorOf(row.config ?? {}),
    event: { id: row.event_id, name: row.event_name },
    ticketType: row.type_name,
    start: row.start_datetime ? new Date(row.start_datetime) : null,
    end: row.end_datetime ? new Date(row.end_datetime) : null,
    timezone: row.venue_tz ?? row.timezone,
    venue: row.venue_name ? { name: row.venue_name, address: addressLine } : null,
    seat: row.seat_name ? { section: row.section ?? '', row: row.row_label ?? '', number: row.number, name: row.seat_name } : null,
    admitName: row.admit_name,
    t: mailStrings(row.strings, ['wallet.']),
  };
  return { info, creds };
}

/** GET ticket/{id}/pkpass: the signed pass and the name to save it under. */
export async function appleWalletPass(deps: Deps, ticketId: string, caller: Caller, proof: PassProof) {
  const { info, creds } = await passInfo(deps, await passTicket(deps, ticketId, caller, proof), 'apple');
  return { filename: `ticket-${info.orderNumber}-${info.ticketId.slice(0, 8)}.pkpass`, data: await applePass(creds.apple!, info) };
}

/** GET ticket/{id}/gwpass: Google Wallet's save link for the ticket. */
export async function googleWalletLink(deps: Deps, ticketId: string, caller: Caller, proof: PassProof): Promise<string> {
  const { info, creds } = await passInfo(deps, await passTicket(deps, ticketId, caller, proof), 'google');
  return googleSaveUrl(creds.google!, info, new URL(deps.config.publicUrl).origin, deps.now());
}

/**
 * The pass links of an order's tickets for its e-mail, by ticket id (none when the seller has no wallet credentials):
 * `{PUBLIC_URL}/api/ticket/{id}/pkpass?sig=...`, each signed for its ticket.
 */
export async function orderPassLinks(
  deps: Deps,
  seller: { id: string; slug: string },
  ticketIds: string[],
): Promise<Map<string, Partial<Record<WalletProvider, string>>>> {
  const links = new Map<string, Partial<Record<WalletProvider, string>>>();
  const creds = walletOf(deps.config, seller.slug);
  const offered = providers.filter((p) => configured(creds, p));
  if (offered.length === 0 || ticketIds.length === 0) return links;
  const secret = await secretOf(deps.db, seller.id);
  const api = `${deps.config.publicUrl}/api`;
  for (const id of ticketIds) {
    const sig = signTicketPass(secret, id);
    links.set(id, Object.fromEntries(offered.map((p) => [p, walletPassUrl(api, id, p, sig)])));
  }
  return links;
}
