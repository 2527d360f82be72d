import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A client on this machine, by the socket's own address (never a forwarded header, which the client writes). */
export const isLoopback = (address: string | undefined) =>
  !!address && (/^127\./.test(address) || address === '::1' || /^::ffff:127\./.test(address));

/**
 * GET /_outbox: the last mails the server kept (tickets, one-time passcodes, reset links), newest first, so
 * the demo can be used without an SMTP server. The page hands out live passcodes and reset links, so it is
 * registered only when a developer asks for it (OUTBOX_PAGE=1, refused in production) and answers only
 * clients on this machine; anyone else gets the plain 404 of a page that does not exist.
 * Bodies are shown as escaped text, never as HTML.
 */
export default async function registerOutbox(app: FastifyInstance, deps: Deps): Promise<void> {
  app.get('/_outbox', async (request, reply) => {
    if (!isLoopback(request.socket.remoteAddress)) return reply.status(404).type('text/plain').send('Not found');
    const rows = await deps.db
      .selectFrom('mail_outbox')
      .select(['kind', 'to_address', 'subject', 'text_body', 'created_at', 'sent_at'])
      .orderBy('created_at', 'desc')
      .limit(50)
      .execute();
    const items = rows
      .map(
        (m) => `<article><h2>${escape(m.subject)}</h2>
<p><strong>To:</strong> ${escape(m.to_address)} &middot; <strong>Kind:</strong> ${escape(m.kind)} &middot;
<time datetime="${m.created_at.toISOString()}">${escape(m.created_at.toISOString())}</time>${m.sent_at ? ' &middot; sent by SMTP' : ''}</p>
<pre>${escape(m.text_body)}</pre></article>`,
      )
      .join('\n');
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox</title><style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
article{border-top:1px solid #ccc;padding:1rem 0}pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem}</style></head>
<body><main><h1>Outbox (${rows.length} most recent)</h1>${items || '<p>No mail yet.</p>'}</main></body></html>`);
  });
}
