import type { Transporter } from 'nodemailer';
import type { Deps } from '../deps';
import { qrPng } from './qr';
import { enqueueJob, runJobNow, type JobHandler } from './job-queue';

/**
 * Mail goes into the outbox table first; with SMTP_URL set a durable job then sends it through that server
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
async function transporterFor(url: string): Promise<Transporter> {
  // nodemailer loads with the first mail sent through SMTP, not with every start (without SMTP_URL it never does).
  const { default: nodemailer } = await import('nodemailer');
  // Timeouts well inside the job's lease (JOB_LEASE_MS): a hung server fails the try instead of holding the job.
  if (!transport || transport.url !== url)
    transport = {
      url,
      transporter: nodemailer.createTransport({ url, connectionTimeout: 30_000, greetingTimeout: 15_000, socketTimeout: 60_000 }),
    };
  return transport.transporter;
}

/**
 * Keeps a message in the outbox. With SMTP_URL set, the outbox row and the job that sends it are written in one
 * transaction (an SMTP server that is down loses nothing: the job tries again with backoff, in whichever process),
 * and this process tries it at once, after the commit: no transaction is open during the SMTP conversation.
 */
export async function queueMail(deps: Deps, mail: OutgoingMail): Promise<string> {
  const smtp = Boolean(deps.config.smtpUrl);
  const { id, jobId } = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
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
    return { id: row.id, jobId: smtp ? await enqueueJob(trx, deps, 'mail_send', { outbox_id: row.id }) : null };
  });
  if (jobId) await runJobNow(deps, jobId, sendMailJob);
  return id;
}

/** The `mail_send` job: sends its outbox message through SMTP_URL; a failure is recorded on the row and thrown. */
export const sendMailJob: JobHandler = async (deps, payload) => {
  if (typeof payload.outbox_id !== 'string') throw new Error('mail_send job without an outbox_id');
  await deliver(deps, payload.outbox_id);
};

/** Sends one outbox message through SMTP; the outcome is recorded on the row, a failure thrown for the job's retry. */
export async function deliver(deps: Deps, id: string): Promise<void> {
  const url = deps.config.smtpUrl;
  if (!url) throw new Error('SMTP_URL is not set');
  const mail = await deps.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
  // Sent already (a try whose job outcome was lost), or gone: nothing to do.
  if (!mail || mail.sent_at) return;
  const from = (mail.meta as Record<string, unknown>)?.from as string | undefined;
  try {
    await (
      await transporterFor(url)
    ).sendMail({
      // One Message-ID per outbox row: a message sent again after a lost outcome is the same message to mail clients.
      messageId: `<${mail.id}@${new URL(deps.config.publicUrl).hostname}>`,
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
  } catch (err) {
    await deps.db
      .updateTable('mail_outbox')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: String((err as Error).message) }))
      .where('id', '=', id)
      .execute();
    throw err;
  }
  await deps.db
    .updateTable('mail_outbox')
    .set((eb) => ({ sent_at: deps.now(), attempts: eb('attempts', '+', 1), last_error: null }))
    .where('id', '=', id)
    .execute();
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
