import { sql } from 'kysely';
import type { Deps } from '../../deps';
import { queueMail, type InlineQr } from '../mail';
import { manageUrl } from '../manage-link';
import { money } from '../../../src/domain/money';
import { imageUrl } from '../../../src/contract/urls';
import { mailStrings } from './strings';
import { brandColorOf } from '../brand';
import { orderPassLinks } from '../wallet';
import type { MailTicket, OrderMailKind } from './template';

export type { OrderMailKind };

const LIVE = new Set(['booked', 'redeemed']);

/** The seller's brand for its mails: config `mail.brand_color` or the storefront's primary colour; its logo image. */
function brandOf(config: Record<string, any>, publicUrl: string) {
  const logo = config.web?.logo;
  return {
    brandColor: brandColorOf(config),
    logoUrl: typeof logo === 'string' && logo ? imageUrl(`${publicUrl}/api`, logo, { width: 384, height: 96 }) : null,
  };
}

async function ticketsOf(deps: Deps, orderId: string) {
  return (
    deps.db
      .selectFrom('ticket')
      .innerJoin('ticket_type', 'ticket_type.id', 'ticket.ticket_type_id')
      .innerJoin('event_template', 'event_template.id', 'ticket.event_template_id')
      .leftJoin('event_session', 'event_session.id', 'ticket.event_session_id')
      .leftJoin('seat', 'seat.id', 'ticket.seat_id')
      .select([
        'ticket.id',
        'ticket.state',
        'ticket.scan_code',
        'ticket.handler',
        'ticket.admit_name',
        'ticket_type.name as type_name',
        'event_template.name as event_name',
        'event_session.start_datetime',
        'seat.section as seat_section',
        'seat.row_label as seat_row',
        'seat.number as seat_number',
        'seat.name as seat_name',
      ])
      .where('ticket.ticket_order_id', '=', orderId)
      .orderBy('ticket.created_at')
      // Seats in the order their row reads ('10' after '9').
      .orderBy('seat.section')
      .orderBy('seat.row_label')
      .orderBy(sql`length(seat.number)`)
      .orderBy('seat.number')
      .orderBy('ticket.id')
      .execute()
  );
}

/**
 * The order e-mail (issue 17): every ticket with its QR code inline, the seller's logo, colour and strings, and the
 * signed manage link when the seller lets visitors manage their orders. `kind` says why it is sent: the purchase or a
 * resend (order_tickets), a change (order_update) or a cancellation (order_cancel).
 */
export async function sendOrderMail(
  deps: Deps,
  orderId: string,
  kind: OrderMailKind = 'order_tickets',
  opts: { refundIds?: string[] } = {},
): Promise<string | null> {
  const db = deps.db;
  const order = await db.selectFrom('ticket_order').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const identity = await db.selectFrom('identity').select('email').where('id', '=', order.identity_id).executeTakeFirstOrThrow();
  if (!identity.email) return null;
  const seller = await db
    .selectFrom('seller')
    .select(['id', 'slug', 'name', 'currency', 'timezone', 'config', 'strings'])
    .where('id', '=', order.seller_id)
    .executeTakeFirstOrThrow();
  const config = seller.config ?? {};
  const t = mailStrings(seller.strings);
  const rows = await ticketsOf(deps, orderId);
  // Gift cards bought: the mail carries each card's number, the only thing that spends it.
  const giftTickets = rows.filter((r) => r.handler === 'ledger').map((r) => r.id);
  const cards = giftTickets.length
    ? await db.selectFrom('ledger').select(['ticket_id', 'number', 'balance']).where('ticket_id', 'in', giftTickets).execute()
    : [];

  const when = (d: Date | null) =>
    d ? new Date(d).toLocaleString('en-US', { timeZone: seller.timezone, dateStyle: 'full', timeStyle: 'short' }) : t('mail.order.anyDate');
  // Wallet pass links for the tickets that admit (issue 17), when the seller has wallet credentials.
  const passLinks =
    kind === 'order_cancel'
      ? new Map()
      : await orderPassLinks(
          deps,
          seller,
          rows.filter((r) => LIVE.has(r.state) && r.scan_code).map((r) => r.id),
        );
  const inlineQr: InlineQr[] = [];
  const tickets: MailTicket[] = rows
    .filter((r) => LIVE.has(r.state) || (kind !== 'order_tickets' && r.state === 'cancelled'))
    .map((r) => {
      const card = cards.find((c) => c.ticket_id === r.id);
      const live = LIVE.has(r.state) && !!r.scan_code && !card;
      const qrCid = live ? `qr-${r.id}@storefront` : null;
      if (qrCid) inlineQr.push({ cid: qrCid, text: r.scan_code! });
      return {
        id: r.id,
        event: r.event_name,
        when: when(r.start_datetime),
        type: r.type_name,
        seat: r.seat_name
          ? r.seat_number
            ? t('mail.order.seat', { section: r.seat_section, row: r.seat_row, number: r.seat_number })
            : r.seat_name
          : null,
        admitName: r.admit_name,
        scanCode: card ? null : r.scan_code,
        giftCard: card ? { number: card.number, balance: `${money(card.balance)} ${seller.currency}` } : null,
        cancelled: r.state === 'cancelled',
        qrCid,
        wallet: live ? (passLinks.get(r.id) ?? null) : null,
      };
    });
  // The refunds this change made (a cancellation of paid tickets): paid out, or still on their way (the reconciler
  // pays out a pending one again); a refused one is not promised.
  const refunds = opts.refundIds?.length
    ? await db.selectFrom('order_refund').select('amount').where('id', 'in', opts.refundIds).where('status', '!=', 'failed').execute()
    : [];
  const refunded = refunds.reduce((sum, r) => sum + r.amount, 0);
  const selfEdit = (config.self_edit_rules?.mode ?? 'off') !== 'off';
  const props = {
    t,
    kind,
    seller: seller.name,
    orderNumber: String(order.order_number),
    total: `${money(order.total_after_fees)} ${seller.currency}`,
    refunded: refunded > 0 ? `${money(refunded)} ${seller.currency}` : null,
    ...brandOf(config, deps.config.publicUrl),
    manageUrl: selfEdit
      ? await manageUrl(db, {
          publicUrl: deps.config.publicUrl,
          sellerId: seller.id,
          sellerSlug: seller.slug,
          defaultSeller: deps.config.defaultSeller,
          orderId,
        })
      : null,
    tickets,
  };
  const { renderOrderMail } = await import('./render');
  const { html, text } = await renderOrderMail(props);
  return queueMail(deps, {
    sellerId: seller.id,
    kind,
    to: identity.email,
    subject: t(`mail.order.subject_${kind}`, { seller: seller.name, number: props.orderNumber }),
    text,
    html,
    inlineQr,
    meta: { ticket_order_id: orderId, from: config.mail_from },
  });
}
