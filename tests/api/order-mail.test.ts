import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { buildTestApp, testClock, testDeps } from '../helpers/app';
import { insertOrder, loadDemo } from '../helpers/auth';
import { sendOrderMail } from '../../server/services/order-mail';
import { verifyOrderSignature } from '../../server/services/manage-link';
import { buildApp } from '../../server/app';
import type { Deps } from '../../server/deps';

describeEachDatabase('the order e-mail', (ctx) => {
  let app: FastifyInstance;
  let deps: Deps;
  let sellerId: string;
  let order: Awaited<ReturnType<typeof insertOrder>>;
  const clock = testClock(new Date('2026-05-04T13:00:00Z'));
  const db = () => ctx().db;

  beforeAll(async () => {
    sellerId = await loadDemo(db(), clock.now());
    const base = testDeps(ctx(), clock.now);
    deps = { ...base, config: { ...base.config, outboxPage: true, publicUrl: 'https://tickets.example.org' } };
    app = await buildTestApp(deps);
    const guest = await db()
      .insertInto('identity')
      .values({
        seller_id: sellerId,
        first_name: 'Gwen',
        last_name: 'Guest',
        email: 'gwen@example.com',
        additional_info: '{}',
        meta: '{}',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    order = await insertOrder(db(), sellerId, guest.id, { now: clock.now() });
    await db().updateTable('ticket').set({ admit_name: '<b>Gwen</b> & "Co"' }).where('id', '=', order.ticketId).execute();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is HTML from the template with a text part, each ticket QR inline, the seller brand and a signed manage link', async () => {
    const id = (await sendOrderMail(deps, order.orderId))!;
    const mail = await db().selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const ticket = await db().selectFrom('ticket').select('scan_code').where('id', '=', order.ticketId).executeTakeFirstOrThrow();
    const seller = await db()
      .selectFrom('seller')
      .select(['manage_link_secret', 'name'])
      .where('id', '=', sellerId)
      .executeTakeFirstOrThrow();

    expect(mail.kind).toBe('order_tickets');
    expect(mail.subject).toMatch(/^Demo Museum of Art & Science: your tickets, order \d+$/);
    expect(mail.html_body).toMatch(/^<!DOCTYPE html/i);
    // One inline QR per admitting ticket, kept as its scan code and drawn when sent or shown.
    expect(mail.meta.inline_qr).toEqual([{ cid: `qr-${order.ticketId}@storefront`, text: ticket.scan_code }]);
    expect(mail.html_body).toContain(`src="cid:qr-${order.ticketId}@storefront"`);
    expect(mail.html_body).toContain(`alt="QR code of ticket ${ticket.scan_code}"`);
    // The seller's colour and logo (config web.primary_color and web.logo).
    expect(mail.html_body).toContain('#1f4e79');
    expect(mail.html_body).toMatch(/src="https:\/\/tickets\.example\.org\/api\/image\/[0-9a-f-]{36}\?sizex=384/);
    // Names are escaped by the template engine.
    expect(mail.html_body).toContain('&lt;b&gt;Gwen&lt;/b&gt; &amp; &quot;Co&quot;');
    expect(mail.html_body).not.toContain('<b>Gwen');
    // The text part says the same, scan code included.
    expect(mail.text_body).toContain(ticket.scan_code!);
    expect(mail.text_body).toContain('Manage your order');

    const link = /href="(https:\/\/tickets\.example\.org\/manage\/[^"]+)"/.exec(mail.html_body!)![1].replaceAll('&amp;', '&');
    const url = new URL(link);
    expect(url.pathname).toBe(`/manage/${order.orderId}`);
    expect(verifyOrderSignature(seller.manage_link_secret, order.orderId, url.searchParams.get('sig'))).toBe(true);
    expect(verifyOrderSignature(seller.manage_link_secret, order.cartId, url.searchParams.get('sig'))).toBe(false);
    expect(seller.manage_link_secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it('shows at /_outbox/{id} with its QR codes drawn, under a CSP without scripts, only when the outbox page is on', async () => {
    const id = (await sendOrderMail(deps, order.orderId))!;
    const list = await app.inject({ method: 'GET', url: '/_outbox' });
    expect(list.body).toContain(`href="/_outbox/${id}"`);
    const res = await app.inject({ method: 'GET', url: `/_outbox/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'[^;']*;/);
    expect(res.body).toContain('src="data:image/png;base64,');
    expect(res.body).not.toContain('cid:');
    expect((await app.inject({ method: 'GET', url: `/_outbox/${id}`, remoteAddress: '203.0.113.9' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/_outbox/not-an-id' })).statusCode).toBe(404);

    const plain = await buildApp({ ...deps, config: { ...deps.config, outboxPage: false } });
    expect((await plain.inject({ method: 'GET', url: `/_outbox/${id}` })).statusCode).toBe(404);
    await plain.close();
  });
});
