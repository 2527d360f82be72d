import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { outboxHtml } from '../services/mail';
import { isUuid } from '../services/cart/access';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A client on this machine, by the socket's own address (never a forwarded header, which the client writes). */
export const isLoopback = (address: string | undefined) =>
  !!address && (/^127\./.test(address) || address === '::1' || /^::ffff:127\./.test(address));

/**
 * GET /_outbox: the last mails the server kept (tickets, one-time passcodes, reset links), newest first, so
 * the demo can be used without an SMTP server. The page hands out live passcodes and reset links, so it is
 * registered only when a developer asks for it (OUTBOX_PAGE=1, refused in production) and answers only
 * clients on this machine; anyone else gets the plain 404 of a page that does not exist.
 * Bodies are listed as escaped text; a mail with an HTML part (the order e-mail) links to `/_outbox/{id}`, which shows
 * that HTML as a mail client would, its inline QR codes drawn as data: images (the server's CSP runs no inline script).
 */
export default async function registerOutbox(app: FastifyInstance, deps: Deps): Promise<void> {
  app.get('/_outbox', async (request, reply) => {
    if (!isLoopback(request.socket.remoteAddress)) return reply.status(404).type('text/plain').send('Not found');
    const rows = await deps.db
      .selectFrom('mail_outbox')
      .select(['id', 'kind', 'to_address', 'subject', 'text_body', 'html_body', 'created_at', 'sent_at'])
      .orderBy('created_at', 'desc')
      .limit(50)
      .execute();
    const items = rows
      .map(
        (m) => `<article><h2>${escape(m.subject)}</h2>
<p><strong>To:</strong> ${escape(m.to_address)} &middot; <strong>Kind:</strong> ${escape(m.kind)} &middot;
<time datetime="${m.created_at.toISOString()}">${escape(m.created_at.toISOString())}</time>${m.sent_at ? ' &middot; sent by SMTP' : ''}${
          m.html_body
            ? ` &middot; <a href="/_outbox/${m.id}">View as e-mail<span class="visually-hidden">: ${escape(m.subject)}</span></a>`
            : ''
        }</p>
<pre>${escape(m.text_body)}</pre></article>`,
      )
      .join('\n');
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox</title><style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
article{border-top:1px solid #ccc;padding:1rem 0}.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem}</style></head>
<body><main><h1>Outbox (${rows.length} most recent)</h1>${items || '<p>No mail yet.</p>'}</main></body></html>`);
  });

  app.get<{ Params: { id: string } }>('/_outbox/:id', async (request, reply) => {
    const id = request.params.id;
    const html = isLoopback(request.socket.remoteAddress) && isUuid(id) ? await outboxHtml(deps, id) : null;
    if (!html) return reply.status(404).type('text/plain').send('Not found');
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html);
  });
}
