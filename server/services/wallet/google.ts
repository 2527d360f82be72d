import type { GoogleWallet } from './credentials';
import { seatOf, type PassInfo } from './pass-info';

/** Google Wallet's save link: the JWT goes at the end of this address. */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';

/** A Google Wallet resource id: `{issuerId}.{suffix}`, the suffix of letters, digits, '.', '_' and '-' only. */
const walletId = (issuerId: string, suffix: string) => `${issuerId}.${suffix.replace(/[^A-Za-z0-9._-]/g, '_')}`;
const text = (value: string) => ({ defaultValue: { language: 'en-US', value } });

/**
 * The ticket's 'Save to Google Wallet' link (Google Wallet API, JWT save link): a JWT signed with the seller's
 * service-account key (RS256) whose claims are `iss` (the service account), `aud` "google", `typ` "savetowallet",
 * `iat`, `origins` (the storefront) and a `payload` holding the event's EventTicketClass and the ticket's
 * EventTicketObject (its QR code carries the scan code). Google creates both when the visitor saves the pass.
 */
export async function googleSaveUrl(creds: GoogleWallet, p: PassInfo, origin: string, now: Date): Promise<string> {
  const classId = walletId(creds.issuerId, `${p.seller.slug}-${p.event.id}`);
  const seat = p.seat;
  const interval = p.start ? { start: { date: p.start.toISOString() }, end: { date: (p.end ?? p.start).toISOString() } } : null;
  const eventTicketClass = {
    id: classId,
    issuerName: p.seller.name,
    reviewStatus: 'UNDER_REVIEW',
    eventName: text(p.event.name),
    hexBackgroundColor: p.brandColor,
    ...(p.venue ? { venue: { name: text(p.venue.name), address: text(p.venue.address || p.venue.name) } } : {}),
    ...(interval ? { dateTime: { start: interval.start.date, end: interval.end.date } } : {}),
  };
  const eventTicketObject = {
    id: walletId(creds.issuerId, p.ticketId),
    classId,
    state: 'ACTIVE',
    barcode: { type: 'QR_CODE', value: p.scanCode, alternateText: p.scanCode },
    ticketNumber: p.scanCode,
    ticketType: text(p.ticketType),
    reservationInfo: { confirmationCode: p.orderNumber },
    hexBackgroundColor: p.brandColor,
    ...(p.admitName ? { ticketHolderName: p.admitName } : {}),
    ...(seat ? { seatInfo: { section: text(seat.section), row: text(seat.row), seat: text(seat.number ?? seatOf(p) ?? seat.name) } } : {}),
    ...(interval ? { validTimeInterval: interval } : {}),
  };
  const { SignJWT, importPKCS8 } = await import('jose'); // with the first save link, not with every start
  const jwt = await new SignJWT({
    origins: [origin],
    typ: 'savetowallet',
    payload: { eventTicketClasses: [eventTicketClass], eventTicketObjects: [eventTicketObject] },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(creds.clientEmail)
    .setAudience('google')
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .sign(await importPKCS8(creds.privateKey, 'RS256'));
  return `${GOOGLE_SAVE_URL}${jwt}`;
}
