import type { TFunction } from 'i18next';

/** What a ticket's pass shows, read once for both providers (services/wallet/index.ts). */
export interface PassInfo {
  ticketId: string;
  scanCode: string;
  orderNumber: string;
  seller: { slug: string; name: string };
  /** #rrggbb */
  brandColor: string;
  event: { id: string; name: string };
  ticketType: string;
  start: Date | null;
  end: Date | null;
  timezone: string;
  venue: { name: string; address: string } | null;
  seat: { section: string; row: string; number: string | null; name: string } | null;
  admitName: string | null;
  /** the pass's words: `wallet.pass.*` of locales/en/translation.json with the seller's overrides */
  t: TFunction;
}

/** The start as the venue reads it ('Wednesday, May 6, 2026 at 1:00 PM'), or 'Any date' for an undated ticket. */
export function whenOf(p: PassInfo): string {
  if (!p.start) return p.t('wallet.pass.anyDate');
  return p.start.toLocaleString('en-US', { timeZone: p.timezone, dateStyle: 'full', timeStyle: 'short' });
}

/** 'Orchestra row C seat 7', or the seat's name when it has no number. */
export function seatOf(p: PassInfo): string | null {
  if (!p.seat) return null;
  return p.seat.number ? p.t('wallet.pass.seatPlace', { section: p.seat.section, row: p.seat.row, number: p.seat.number }) : p.seat.name;
}
