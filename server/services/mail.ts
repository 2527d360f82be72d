import nodemailer, { type Transporter } from 'nodemailer';
import { sql } from 'kysely';
import type { Deps } from '../deps';
import { money } from '../../src/domain/money';

/**
 * Mail goes into the outbox table first; with SMTP_URL set it is then sent through that server
 * (DESIGN.md section 6). Never called inside a booking transaction: a slow mail server must not hold
 * locks, and a failed send must not undo an order.
 */
export interface OutgoingMail {
  sellerId: string | null;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  meta?: Record<string, unknown>;
}

let transport: { url: string; transporter: Transporter } | null = null;
function transporterFor(url: string): Transporter {
  if (!transport || transport.url !== url) transport = { url, transporter: nodemailer.createTransport(url) };
  return transport.transporter;
}

export async function queueMail(deps: Deps, mail: OutgoingMail): Promise<string> {
  const row = await deps.db
    .insertInto('mail_outbox')
    .values({
      seller_id: mail.sellerId,
      kind: mail.kind,
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      meta: JSON.stringify(mail.meta ?? {}),
      created_at: deps.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (deps.config.smtpUrl) await deliver(deps, row.id);
  return row.id;
}

/** Sends one outbox message through SMTP; the outcome is recorded on the row. */
export async function deliver(deps: Deps, id: string): Promise<boolean> {
  const url = deps.config.smtpUrl;
  if (!url) return false;
  const mail = await deps.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  if (mail.sent_at) return true;
  const from = (mail.meta as Record<string, unknown>)?.from as string | undefined;
  try {
    await transporterFor(url).sendMail({
      from: from ?? 'tickets@storefront.local',
      to: mail.to_address,
      subject: mail.subject,
      text: mail.text_body,
      ...(mail.html_body ? { html: mail.html_body } : {}),
    });
    await deps.db
      .updateTable('mail_outbox')
      .set((eb) => ({ sent_at: deps.now(), attempts: eb('attempts', '+', 1), last_error: null }))
      .where('id', '=', id)
      .execute();
    return true;
  } catch (err) {
    await deps.db
      .updateTable('mail_outbox')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: String((err as Error).message) }))
      .where('id', '=', id)
      .execute();
    return false;
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The order e-mail: order number, total and one line per ticket with its scan code. */
export async function sendOrderMail(deps: Deps, orderId: string): Promise<string | null> {
  const db = deps.db;
  const order = await db.selectFrom('ticket_order').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const identity = await db.selectFrom('identity').selectAll().where('id', '=', order.identity_id).executeTakeFirstOrThrow();
  if (!identity.email) return null;
  const seller = await db.selectFrom('seller').selectAll().where('id', '=', order.seller_id).executeTakeFirstOrThrow();
  const tickets = await db
    .selectFrom('ticket')
    .innerJoin('ticket_type', 'ticket_type.id', 'ticket.ticket_type_id')
    .innerJoin('event_template', 'event_template.id', 'ticket.event_template_id')
    .leftJoin('event_session', 'event_session.id', 'ticket.event_session_id')
    .leftJoin('seat', 'seat.id', 'ticket.seat_id')
    .select([
      'ticket.id',
      'ticket.scan_code',
      'ticket.admit_name',
      'ticket.adjusted_value',
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
    .execute();

  const when = (d: Date | null) =>
    d ? new Date(d).toLocaleString('en-US', { timeZone: seller.timezone, dateStyle: 'full', timeStyle: 'short' }) : 'Any date';
  const seat = (t: (typeof tickets)[number]) =>
    t.seat_name ? `, ${t.seat_number ? `${t.seat_section} row ${t.seat_row} seat ${t.seat_number}` : t.seat_name}` : '';
  const lines = tickets.map(
    (t) =>
      `${t.event_name}, ${when(t.start_datetime)} - ${t.type_name}${seat(t)}${t.admit_name ? ` (${t.admit_name})` : ''}: ${t.scan_code}`,
  );
  const total = `${money(order.total_after_fees)} ${seller.currency}`;
  const subject = `${seller.name}: your tickets, order ${order.order_number}`;
  const text = [
    `Thank you for your order ${order.order_number}.`,
    '',
    ...lines,
    '',
    `Total: ${total}`,
    'Show the code of each ticket at the entrance.',
  ].join('\n');
  const html = `<p>Thank you for your order <strong>${escapeHtml(String(order.order_number))}</strong>.</p><ul>${tickets
    .map((_, i) => `<li>${escapeHtml(lines[i])}</li>`)
    .join('')}</ul><p>Total: ${escapeHtml(total)}</p>`;
  return queueMail(deps, {
    sellerId: seller.id,
    kind: 'order_tickets',
    to: identity.email,
    subject,
    text,
    html,
    meta: { ticket_order_id: orderId, from: seller.config?.mail_from },
  });
}
