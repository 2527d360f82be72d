import nodemailer, { type Transporter } from 'nodemailer';
import type { Deps } from '../deps';
import { qrPng } from './qr';

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
  /** QR codes the HTML shows inline as `cid:` images; kept as their text in the row's meta, drawn when sent or shown */
  inlineQr?: InlineQr[];
  meta?: Record<string, unknown>;
}

export interface InlineQr {
  cid: string;
  text: string;
}

const inlineQrOf = (meta: unknown): InlineQr[] => {
  const list = (meta as { inline_qr?: unknown } | null)?.inline_qr;
  return Array.isArray(list) ? list.filter((q): q is InlineQr => typeof q?.cid === 'string' && typeof q?.text === 'string') : [];
};

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
      meta: JSON.stringify({ ...mail.meta, ...(mail.inlineQr?.length ? { inline_qr: mail.inlineQr } : {}) }),
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
      attachments: await Promise.all(
        inlineQrOf(mail.meta).map(async (q) => ({
          cid: q.cid,
          filename: 'ticket-qr.png',
          contentType: 'image/png',
          content: await qrPng(q.text),
        })),
      ),
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

/** The HTML of one kept mail as a browser shows it (the outbox page): its inline QR codes as data: images. */
export async function outboxHtml(deps: Deps, id: string): Promise<string | null> {
  const mail = await deps.db.selectFrom('mail_outbox').select(['html_body', 'meta']).where('id', '=', id).executeTakeFirst();
  if (!mail?.html_body) return null;
  let html = mail.html_body;
  for (const q of inlineQrOf(mail.meta)) {
    html = html.split(`cid:${q.cid}`).join(`data:image/png;base64,${(await qrPng(q.text)).toString('base64')}`);
  }
  return html;
}
