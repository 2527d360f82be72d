import type { AppleWallet } from './credentials';
import { seatOf, whenOf, type PassInfo } from './pass-info';
import { squarePng } from './icon';

const rgb = (hex: string) => `rgb(${[0, 2, 4].map((i) => parseInt(hex.slice(1 + i, 3 + i), 16)).join(',')})`;

/**
 * The ticket's Apple Wallet pass (an event ticket): pass.json, the icon, manifest.json (SHA-1 of each file) and the
 * detached PKCS#7 signature of the manifest, made by `passkit-generator` with the seller's Pass Type ID certificate and
 * Apple's WWDR certificate. The QR code carries the ticket's scan code, as the e-mail's does.
 */
export async function applePass(creds: AppleWallet, p: PassInfo): Promise<Buffer> {
  // passkit-generator (with joi) loads with the first pass asked for, not with every start of the server.
  const { PKPass } = await import('passkit-generator');
  const { t } = p;
  const seat = seatOf(p);
  const field = (key: string, label: string, value: string) => ({ key, label: t(`wallet.pass.${label}`), value });
  const passJson = {
    formatVersion: 1,
    passTypeIdentifier: creds.passTypeId,
    teamIdentifier: creds.teamId,
    organizationName: p.seller.name,
    description: t('wallet.pass.description', { event: p.event.name, seller: p.seller.name }),
    serialNumber: p.ticketId,
    backgroundColor: rgb(p.brandColor),
    foregroundColor: 'rgb(255,255,255)',
    labelColor: 'rgb(255,255,255)',
    eventTicket: {
      primaryFields: [field('event', 'event', p.event.name)],
      secondaryFields: [field('when', 'when', whenOf(p))],
      auxiliaryFields: [
        field('type', 'ticket', p.ticketType),
        ...(seat ? [field('seat', 'seat', seat)] : []),
        field('order', 'order', p.orderNumber),
      ],
      backFields: [
        ...(p.admitName ? [field('holder', 'holder', p.admitName)] : []),
        ...(p.venue ? [field('venue', 'venue', [p.venue.name, p.venue.address].filter(Boolean).join('\n'))] : []),
        field('code', 'code', p.scanCode),
      ],
    },
  };
  const icon = creds.icon;
  const pass = new PKPass(
    {
      'pass.json': Buffer.from(JSON.stringify(passJson)),
      'icon.png': icon ?? squarePng(29, p.brandColor),
      'icon@2x.png': icon ?? squarePng(58, p.brandColor),
      'icon@3x.png': icon ?? squarePng(87, p.brandColor),
    },
    {
      wwdr: creds.wwdr,
      signerCert: creds.signerCert,
      signerKey: creds.signerKey,
      ...(creds.signerKeyPassphrase ? { signerKeyPassphrase: creds.signerKeyPassphrase } : {}),
    },
  );
  pass.setBarcodes({ format: 'PKBarcodeFormatQR', message: p.scanCode, messageEncoding: 'iso-8859-1', altText: p.scanCode });
  if (p.start) pass.setRelevantDates([{ startDate: p.start.toISOString(), endDate: (p.end ?? p.start).toISOString() }]);
  if (p.end) pass.setExpirationDate(new Date(p.end.getTime() + 24 * 3_600_000));
  return pass.getAsBuffer();
}
