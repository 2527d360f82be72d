import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { AuthBrowser, DEMO_MEMBER, identityOfEmail, insertOrder, lastMail, loadDemo } from '../helpers/auth';
import { makeTestWallet, type TestWallet } from '../helpers/wallet-credentials';
import { readPkpass, readSaveLink } from '../helpers/wallet-checks';
import { signOrder } from '../../server/services/manage-link';
import { checkOutFree, freeTalk, freeTalkCart } from '../helpers/free-talk';
import { readWalletFile } from '../../server/services/wallet/credentials';
import { MANAGE_SIGNATURE_HEADER } from '../../src/contract/manage-link';
import { ORDER_TOKEN_HEADER } from '../../src/contract/urls';
import type { Deps } from '../../server/deps';

const SELLER = '_seller=demo';
const code = (res: { body: { _data?: Array<{ _code: string }> } }) => res.body._data?.[0]?._code;
const TALK = 'Free Gallery Talk: Objects in Focus';

describeEachDatabase('wallet passes (issue 17: walletprecheck, pkpass, gwpass)', (ctx) => {
  let app: FastifyInstance;
  let deps: Deps;
  let sellerId: string;
  let wallet: TestWallet;
  let dir: string;
  let talk: { typeId: string; sessionId: string };
  const clock = testClock(new Date('2026-05-04T13:00:00Z'));
  const db = () => ctx().db;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'wallet-test-'));
    wallet = makeTestWallet(dir);
    sellerId = await loadDemo(db(), clock.now());
    deps = testDeps(ctx(), clock.now);
    deps.config.publicUrl = 'https://shop.example.org';
    app = await buildTestApp(deps);
    talk = await freeTalk(db(), clock.now());
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const configure = (on: boolean) => {
    deps.config.walletConfigFiles = on ? { DEMO: wallet.file } : {};
  };

  /** A guest books free places of the talk; the buying browser, the order, its tickets and its access token. */
  async function book(count = 1, email = 'gwen@example.com') {
    const { b, cartId } = await freeTalkCart(app, talk, { count, name: 'Gwen Guest' });
    const paid = await checkOutFree(b, cartId, email);
    const order = paid.ticket_order._data[0];
    return {
      b,
      orderId: order.id as string,
      orderNumber: order.order_number as string,
      accessToken: order.access_token as string,
      // the named ticket first
      tickets: (paid.ticket._data as Array<{ id: string; admit_name: string | null }>).sort(
        (x, y) => Number(y.admit_name !== null) - Number(x.admit_name !== null),
      ),
    };
  }

  it('says no wallet is configured (ok false) and offers no pass without the seller credentials', async () => {
    configure(false);
    const { b, tickets } = await book();
    const pre = await b.get(`/api/ticket/${tickets[0].id}/walletprecheck?${SELLER}`);
    expect(pre.status).toBe(200);
    expect(pre.body.wallet_precheck._data).toEqual([
      { ticket_id: tickets[0].id, provider: 'apple', ok: false, reason: 'not_configured', sig: null },
      { ticket_id: tickets[0].id, provider: 'google', ok: false, reason: 'not_configured', sig: null },
    ]);
    for (const kind of ['pkpass', 'gwpass']) {
      const res = await b.get(`/api/ticket/${tickets[0].id}/${kind}?${SELLER}`);
      expect([res.status, code(res)]).toEqual([404, 'wallet_not_configured']);
    }
  });

  it("makes a signed Apple Wallet pass of the ticket with the seller's certificates: pass.json, manifest and signature", async () => {
    configure(true);
    const { b, tickets, orderNumber } = await book(2);
    const pre = await b.get(`/api/ticket/${tickets[0].id}/walletprecheck?${SELLER}`);
    expect(pre.body.wallet_precheck._data.map((r: { provider: string; ok: boolean }) => [r.provider, r.ok])).toEqual([
      ['apple', true],
      ['google', true],
    ]);
    expect(pre.body.wallet_precheck._data[0].sig).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const res = await b.get(`/api/ticket/${tickets[0].id}/pkpass?${SELLER}`);
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toBe('application/vnd.apple.pkpass');
    expect(res.res.headers['content-disposition']).toMatch(/^attachment; filename="ticket-\d+-[0-9a-f]{8}\.pkpass"$/);
    expect(res.res.headers['cache-control']).toBe('private, no-store');
    const pass = readPkpass(res.body as Buffer, wallet.signerCertPem);
    expect(Object.keys(pass.files).sort()).toEqual(['icon.png', 'icon@2x.png', 'icon@3x.png', 'manifest.json', 'pass.json', 'signature']);
    expect(pass.manifestOk).toBe(true);
    expect(pass.signatureOk).toBe(true);
    // A pass signed by another key is not taken for ours.
    expect(readPkpass(res.body as Buffer, wallet.wwdrPem).signatureOk).toBe(false);
    const scan = (await db().selectFrom('ticket').select('scan_code').where('id', '=', tickets[0].id).executeTakeFirstOrThrow()).scan_code;
    expect(pass.passJson).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: wallet.passTypeId,
      teamIdentifier: wallet.teamId,
      serialNumber: tickets[0].id,
      organizationName: 'Demo Museum of Art & Science',
      description: `${TALK}, Demo Museum of Art & Science`,
      backgroundColor: 'rgb(31,78,121)',
      barcodes: [{ format: 'PKBarcodeFormatQR', message: scan, messageEncoding: 'iso-8859-1', altText: scan }],
    });
    const fields = pass.passJson.eventTicket;
    expect(fields.primaryFields).toEqual([{ key: 'event', label: 'Event', value: TALK }]);
    expect(fields.secondaryFields[0].value).toMatch(/^\w+day, May \d+, 2026 at 1:00\sPM$/);
    expect(fields.auxiliaryFields).toEqual([
      { key: 'type', label: 'Ticket', value: 'Free place' },
      { key: 'order', label: 'Order', value: orderNumber },
    ]);
    expect(fields.backFields).toEqual([
      { key: 'holder', label: 'Name', value: 'Gwen Guest' },
      { key: 'venue', label: 'Venue', value: 'Demo Museum of Art & Science\n200 Central Park West, New York, NY, 10024, US' },
      { key: 'code', label: 'Ticket code', value: scan },
    ]);
    expect(pass.passJson.relevantDates).toHaveLength(1);
  });

  it("links to Google Wallet with a JWT signed by the seller's service-account key (RS256) in the save-link format", async () => {
    configure(true);
    const { b, tickets, orderNumber } = await book();
    const res = await b.get(`/api/ticket/${tickets[0].id}/gwpass?${SELLER}`);
    expect(res.status).toBe(302);
    const location = String(res.res.headers.location);
    expect(location).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const link = readSaveLink(location, wallet.googlePublicKeyPem);
    expect(link.signatureOk).toBe(true);
    expect(link.header).toEqual({ alg: 'RS256', typ: 'JWT' });
    const { claims } = link;
    expect(claims).toMatchObject({ iss: wallet.clientEmail, aud: 'google', typ: 'savetowallet', origins: ['https://shop.example.org'] });
    expect(claims.iat).toBe(Math.floor(clock.now().getTime() / 1000));
    const scan = (await db().selectFrom('ticket').select('scan_code').where('id', '=', tickets[0].id).executeTakeFirstOrThrow()).scan_code;
    const [eventClass] = claims.payload.eventTicketClasses;
    const [object] = claims.payload.eventTicketObjects;
    expect(eventClass).toMatchObject({
      id: expect.stringMatching(new RegExp(`^${wallet.issuerId}\\.demo-[0-9a-f-]{36}$`)),
      issuerName: 'Demo Museum of Art & Science',
      reviewStatus: 'UNDER_REVIEW',
      eventName: { defaultValue: { language: 'en-US', value: TALK } },
      venue: { name: { defaultValue: { language: 'en-US', value: 'Demo Museum of Art & Science' } } },
    });
    expect(object).toMatchObject({
      id: `${wallet.issuerId}.${tickets[0].id}`,
      classId: eventClass.id,
      state: 'ACTIVE',
      barcode: { type: 'QR_CODE', value: scan, alternateText: scan },
      ticketHolderName: 'Gwen Guest',
      reservationInfo: { confirmationCode: orderNumber },
    });
    // A JWT signed with another key does not check out.
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    expect(readSaveLink(location, otherKey).signatureOk).toBe(false);
  });

  it('gives a pass only to whoever may see the order: buyer cookie, pass or manage link, access token, logged-in owner', async () => {
    configure(true);
    const { tickets, orderId, accessToken } = await book();
    const other = await book(1, 'other@example.com');
    const ticket = tickets[0].id;
    const stranger = new Browser(app);
    for (const kind of ['walletprecheck', 'pkpass', 'gwpass']) {
      const res = await stranger.get(`/api/ticket/${ticket}/${kind}?${SELLER}`);
      expect([kind, res.status, code(res)]).toEqual([kind, 404, 'not_found']);
    }
    // Another ticket's pass link, another order's manage link, a made-up signature: nothing.
    const otherSig = (await other.b.get(`/api/ticket/${other.tickets[0].id}/walletprecheck?${SELLER}`)).body.wallet_precheck._data[0].sig;
    expect((await stranger.get(`/api/ticket/${ticket}/pkpass?${SELLER}&sig=${otherSig}`)).status).toBe(404);
    expect((await stranger.get(`/api/ticket/${ticket}/pkpass?${SELLER}&sig=${'A'.repeat(43)}`)).status).toBe(404);
    const secret = (await db().selectFrom('seller').select('manage_link_secret').where('id', '=', sellerId).executeTakeFirstOrThrow())
      .manage_link_secret;
    expect(
      (await stranger.get(`/api/ticket/${ticket}/pkpass?${SELLER}`, { [MANAGE_SIGNATURE_HEADER]: signOrder(secret, other.orderId) }))
        .status,
    ).toBe(404);
    expect((await stranger.get(`/api/ticket/${ticket}/walletprecheck?${SELLER}&sig=${otherSig}`)).status).toBe(404);

    // The proofs that work, each from a browser without the buyer's cookie.
    const mySig = (await new Browser(app).get(`/api/ticket/${ticket}/walletprecheck?${SELLER}`, { [ORDER_TOKEN_HEADER]: accessToken })).body
      .wallet_precheck._data[0].sig;
    expect((await new Browser(app).get(`/api/ticket/${ticket}/pkpass?${SELLER}&sig=${mySig}`)).status).toBe(200);
    expect((await new Browser(app).get(`/api/ticket/${ticket}/gwpass?sig=${mySig}`)).status).toBe(302);
    expect(
      (await new Browser(app).get(`/api/ticket/${ticket}/pkpass?${SELLER}`, { [MANAGE_SIGNATURE_HEADER]: signOrder(secret, orderId) }))
        .status,
    ).toBe(200);
    expect((await new Browser(app).get(`/api/ticket/${ticket}/pkpass?${SELLER}`, { [ORDER_TOKEN_HEADER]: accessToken })).status).toBe(200);
    // A pass link proves its ticket only: as a manage signature it manages nothing.
    const asManage = { [MANAGE_SIGNATURE_HEADER]: mySig };
    expect(
      (await new Browser(app).request('POST', `/api/ticket_order/${orderId}/cancel?${SELLER}`, { tickets: [ticket] }, asManage)).status,
    ).toBe(404);
    expect((await new Browser(app).get(`/api/ticket_order/${orderId}/self_edit?${SELLER}`, asManage)).status).toBe(404);

    // The logged-in owner: the demo member's order, read with the member's session and with nothing else.
    const member = new AuthBrowser(app);
    expect((await member.post(`/api/login?${SELLER}`, { username: DEMO_MEMBER.email, password: DEMO_MEMBER.password })).status).toBe(200);
    const identity = await identityOfEmail(db(), sellerId, DEMO_MEMBER.email);
    const theirs = await insertOrder(db(), sellerId, identity.identity_id, { now: clock.now(), daysAhead: 3 });
    expect((await member.get(`/api/ticket/${theirs.ticketId}/pkpass?${SELLER}`)).status).toBe(200);
    expect((await stranger.get(`/api/ticket/${theirs.ticketId}/pkpass?${SELLER}`)).status).toBe(404);
  });

  it('has no pass for a ticket that admits nobody (cancelled), and says so in precheck', async () => {
    configure(true);
    const { b, tickets } = await book();
    await db().updateTable('ticket').set({ state: 'cancelled' }).where('id', '=', tickets[0].id).execute();
    const pre = await b.get(`/api/ticket/${tickets[0].id}/walletprecheck?${SELLER}`);
    expect(pre.body.wallet_precheck._data.map((r: { ok: boolean; reason: string }) => [r.ok, r.reason])).toEqual([
      [false, 'not_admitting'],
      [false, 'not_admitting'],
    ]);
    const res = await b.get(`/api/ticket/${tickets[0].id}/pkpass?${SELLER}`);
    expect([res.status, code(res)]).toEqual([409, 'ticket_state_incorrect']);
  });

  it('puts the pass links in the order e-mail; they work from any browser; the credentials never reach GET config', async () => {
    configure(true);
    const email = 'mail-wallet@example.com';
    const { b, orderId, tickets } = await book(1, email);
    expect((await b.post(`/api/ticket_order/${orderId}/email?${SELLER}`, {})).status).toBe(200);
    const mail = (await lastMail(db(), email, 'order_tickets'))!;
    const apple = new RegExp(`https://shop\\.example\\.org/api/ticket/${tickets[0].id}/pkpass\\?sig=([A-Za-z0-9_-]{43})`);
    const google = new RegExp(`https://shop\\.example\\.org/api/ticket/${tickets[0].id}/gwpass\\?sig=([A-Za-z0-9_-]{43})`);
    expect(mail.html_body).toMatch(apple);
    expect(mail.html_body).toMatch(google);
    expect(mail.html_body).toContain('Add to Apple Wallet');
    expect(mail.text_body ?? '').toMatch(apple);
    const sig = apple.exec(mail.html_body ?? '')![1];
    expect((await new Browser(app).get(`/api/ticket/${tickets[0].id}/pkpass?sig=${sig}`)).status).toBe(200);

    const config = JSON.stringify((await new Browser(app).get(`/api/config?${SELLER}`)).body);
    for (const secret of [wallet.passTypeId, wallet.clientEmail, wallet.issuerId, 'PRIVATE KEY', 'CERTIFICATE', wallet.file])
      expect(config).not.toContain(secret);

    // Without credentials the mail carries no wallet links.
    configure(false);
    const plain = await book(1, 'mail-plain@example.com');
    expect((await plain.b.post(`/api/ticket_order/${plain.orderId}/email?${SELLER}`, {})).status).toBe(200);
    const plainMail = (await lastMail(db(), 'mail-plain@example.com', 'order_tickets'))!;
    expect(plainMail.html_body).toContain('Free Gallery Talk');
    expect(plainMail.html_body).not.toMatch(/pkpass|gwpass/);
  });

  it('refuses a wallet file that does not read, naming it and the problem', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ apple: { pass_type_id: 'not-a-pass-id', team_id: 'X' } }));
    expect(() => readWalletFile(bad)).toThrow(`wallet config ${bad}: apple.pass_type_id is missing or malformed`);
    writeFileSync(bad, JSON.stringify({ google: { issuer_id: '1', service_account: 'missing.json' } }));
    expect(() => readWalletFile(bad)).toThrow(/missing\.json/);
    expect(readWalletFile(wallet.file).apple?.passTypeId).toBe(wallet.passTypeId);
  });
});
