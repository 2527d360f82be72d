import type { TFunction } from 'i18next';
import { Body, Button, Column, Container, Head, Heading, Hr, Html, Img, Link, Preview, Row, Section, Text } from '@react-email/components';

/** One ticket line of the e-mail. */
export interface MailTicket {
  id: string;
  event: string;
  when: string;
  type: string;
  seat: string | null;
  admitName: string | null;
  scanCode: string | null;
  cancelled: boolean;
  /** the `cid:` of its inline QR image, when it admits */
  qrCid: string | null;
  /** a gift card bought: the card it issued (its number is what pays; no QR code, it admits nobody) */
  giftCard?: { number: string; balance: string } | null;
  /** its wallet pass links, signed for this ticket, when the seller has wallet credentials (issue 17) */
  wallet?: { apple?: string; google?: string } | null;
}

export type OrderMailKind = 'order_tickets' | 'order_update' | 'order_cancel';

export interface OrderMailProps {
  t: TFunction;
  kind: OrderMailKind;
  seller: string;
  orderNumber: string;
  total: string;
  /** the seller's colour as #rrggbb */
  brandColor: string;
  logoUrl: string | null;
  manageUrl: string | null;
  tickets: MailTicket[];
  /** what this change refunds, with its currency (a cancellation of paid tickets), else null */
  refunded?: string | null;
}

const font = 'Helvetica, Arial, sans-serif';

/**
 * The order e-mail (issue 17), rendered on the server by @react-email: tables and inline styles that mail clients
 * draw alike, one column that narrows on a phone, each admitting ticket's QR code as an inline (cid:) image, the
 * seller's logo and colour, and the signed manage link. Every value is written by React, so names and survey answers
 * are escaped.
 */
export function OrderMail(p: OrderMailProps) {
  const { t } = p;
  return (
    <Html lang="en">
      <Head />
      <Preview>{t(`mail.order.intro_${p.kind}`, { number: p.orderNumber })}</Preview>
      <Body style={{ backgroundColor: '#f4f3f0', fontFamily: font, margin: 0, padding: '16px 0' }}>
        <Container style={{ backgroundColor: '#ffffff', maxWidth: '600px', width: '100%', borderTop: `6px solid ${p.brandColor}` }}>
          <Section style={{ padding: '20px 24px 0' }}>
            {p.logoUrl ? (
              <Img src={p.logoUrl} alt={t('mail.order.logoAlt', { seller: p.seller })} height="48" style={{ maxWidth: '192px' }} />
            ) : (
              <Text style={{ fontSize: '18px', fontWeight: 700, color: p.brandColor, margin: 0 }}>{p.seller}</Text>
            )}
          </Section>
          <Section style={{ padding: '0 24px' }}>
            <Heading as="h1" style={{ fontSize: '24px', color: '#1f1f1f', margin: '20px 0 8px' }}>
              {t('mail.order.heading', { number: p.orderNumber })}
            </Heading>
            <Text style={{ fontSize: '16px', color: '#1f1f1f' }}>{t(`mail.order.intro_${p.kind}`, { number: p.orderNumber })}</Text>
          </Section>
          {p.tickets.map((ticket) => (
            <Section key={ticket.id} style={{ padding: '0 24px' }}>
              <Hr style={{ borderColor: '#dddddd' }} />
              <Row>
                <Column style={{ verticalAlign: 'top' }}>
                  <Text style={{ fontSize: '16px', fontWeight: 700, color: '#1f1f1f', margin: '8px 0 4px' }}>{ticket.event}</Text>
                  <Text style={{ fontSize: '15px', color: '#1f1f1f', margin: '0 0 4px' }}>{ticket.when}</Text>
                  <Text style={{ fontSize: '15px', color: '#1f1f1f', margin: '0 0 4px' }}>
                    {ticket.type}
                    {ticket.seat ? `, ${ticket.seat}` : ''}
                  </Text>
                  {ticket.admitName && (
                    <Text style={{ fontSize: '15px', color: '#1f1f1f', margin: '0 0 4px' }}>
                      {t('mail.order.admits', { name: ticket.admitName })}
                    </Text>
                  )}
                  {ticket.cancelled ? (
                    <Text style={{ fontSize: '15px', fontWeight: 700, color: '#8a1c1c', margin: '0 0 8px' }}>
                      {t('mail.order.cancelled')}
                    </Text>
                  ) : ticket.giftCard ? (
                    <Text style={{ fontSize: '15px', color: '#1f1f1f', fontFamily: 'monospace', margin: '0 0 8px' }}>
                      {t('mail.order.giftCard', ticket.giftCard)}
                    </Text>
                  ) : (
                    ticket.scanCode && (
                      <Text style={{ fontSize: '14px', color: '#444444', fontFamily: 'monospace', margin: '0 0 8px' }}>
                        {t('mail.order.code', { code: ticket.scanCode })}
                      </Text>
                    )
                  )}
                </Column>
              </Row>
              {ticket.wallet && (ticket.wallet.apple || ticket.wallet.google) && (
                <Row>
                  <Column>
                    <Text style={{ fontSize: '15px', margin: '0 0 12px' }}>
                      {ticket.wallet.apple && (
                        <Link href={ticket.wallet.apple} style={{ color: p.brandColor, fontWeight: 700, textDecoration: 'underline' }}>
                          {t('mail.order.appleWallet')}
                        </Link>
                      )}
                      {ticket.wallet.apple && ticket.wallet.google && ' · '}
                      {ticket.wallet.google && (
                        <Link href={ticket.wallet.google} style={{ color: p.brandColor, fontWeight: 700, textDecoration: 'underline' }}>
                          {t('mail.order.googleWallet')}
                        </Link>
                      )}
                    </Text>
                  </Column>
                </Row>
              )}
              {ticket.qrCid && ticket.scanCode && (
                <Row>
                  <Column>
                    <Img
                      src={`cid:${ticket.qrCid}`}
                      alt={t('mail.order.qrAlt', { code: ticket.scanCode })}
                      width="160"
                      height="160"
                      style={{ display: 'block', margin: '4px 0 12px' }}
                    />
                  </Column>
                </Row>
              )}
            </Section>
          ))}
          <Section style={{ padding: '0 24px' }}>
            <Hr style={{ borderColor: '#dddddd' }} />
            <Text style={{ fontSize: '16px', fontWeight: 700, color: '#1f1f1f' }}>{t('mail.order.total', { total: p.total })}</Text>
            {p.refunded && <Text style={{ fontSize: '15px', color: '#1f1f1f' }}>{t('mail.order.refunded', { amount: p.refunded })}</Text>}
            {p.kind !== 'order_cancel' && <Text style={{ fontSize: '15px', color: '#1f1f1f' }}>{t('mail.order.showCode')}</Text>}
          </Section>
          {p.manageUrl && (
            <Section style={{ padding: '8px 24px 24px' }}>
              <Text style={{ fontSize: '15px', color: '#1f1f1f' }}>{t('mail.order.manageText')}</Text>
              <Button
                href={p.manageUrl}
                style={{
                  backgroundColor: p.brandColor,
                  color: '#ffffff',
                  fontSize: '16px',
                  fontWeight: 700,
                  padding: '12px 20px',
                  borderRadius: '4px',
                  textDecoration: 'none',
                }}
              >
                {t('mail.order.manage')}
              </Button>
            </Section>
          )}
        </Container>
        <Container style={{ maxWidth: '600px', width: '100%' }}>
          <Text style={{ fontSize: '13px', color: '#555555', padding: '0 24px' }}>{t('mail.order.footer', { seller: p.seller })}</Text>
        </Container>
      </Body>
    </Html>
  );
}
