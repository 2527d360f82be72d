// `npm run stories:fixtures`: records the API's answers over the demo seller (sellers/demo) into
// src/stories/fixtures/demo-answers.json, the wire data the stories feed the storefront's real stores with
// (src/stories/harness). The API runs in this process on an in-memory PGlite with its clock pinned, so the
// recording is the same on every run; re-run it when the contract or the demo seller changes
// (tests/unit/story-fixtures.test.ts checks the recording against the contract's schemas).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from '../server/app';
import { readConfig } from '../server/config';
import { migrateToLatest, openDatabase } from '../server/db';
import { loadSellerFolder } from '../server/catalog/loader';
import { STORY_NOW, type RecordedAnswers } from '../src/stories/harness/recorded';
import type { StorefrontConfig } from '../src/contract/storefront';

const OUT = path.resolve('src/stories/fixtures/demo-answers.json');
// The demo seller's member (sellers/demo: the membership it ships); the stories' logged-in member.
const MEMBER = { username: 'member@example.com', password: 'MuseumDemo2026!' };
const ECOMM = { 'x-ticketing-app': 'ecomm' };
// The test gateway's cards (server/services/payments/test.ts).
const CARDS = { ok: '4242424242424242', declined: '4000000000000002' };

const runStart = Date.now() - 1000;
const handle = await openDatabase({});
await migrateToLatest(handle.db);
const now = new Date(STORY_NOW);
await loadSellerFolder(handle.db, path.resolve('sellers/demo'), { now });
const app = await buildApp({
  db: handle.db,
  dbKind: handle.kind,
  config: { ...readConfig({ STATIC_DIR: '/nonexistent-static', READ_CACHE_MS: '0' }), production: false },
  now: () => now,
});
await app.ready();

let cookies: Record<string, string> = {};
async function send(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await app.inject({
    method,
    url: `/api/${url}${url.includes('?') ? '&' : '?'}_seller=demo`,
    headers: {
      ...ECOMM,
      cookie: Object.entries(cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
    },
    ...(payload ? { payload } : {}),
  });
  for (const c of res.cookies) cookies = { ...cookies, [c.name]: c.value };
  return res;
}
async function call(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await send(method, url, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}
/** A call the API refuses: its error body (the stories show the refusal as the storefront gets it). */
async function refused(method: 'GET' | 'POST', url: string, payload: object, status: number) {
  const res = await send(method, url, payload);
  if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode}, not ${status}: ${res.body}`);
  return res.json();
}

const answers: RecordedAnswers = {} as RecordedAnswers;
answers.config = await call('GET', 'config?key._in=storefront,strings,content_blocks');
answers.events = await call('GET', 'events/available?hidden_type._in=public_browsable&_embed=venue,meta');
const admission = answers.events.event_template._data.find((e) => e.category === 'admission')!;
const id = admission.id;
answers.admission = await call('GET', `events/${id}?_embed=ticket_group,ticket_type,message_rule,ticket_rule,meta,config,venue`);
answers.calendar = await call('GET', `events/${id}/calendar?_format=extended`);
const day = answers.calendar.calendar._data.find((d) => d.status === 'available')!.date;
answers.sessions = await call('GET', `events/${id}/sessions?start_datetime._ondate=${day}&sold_out=T&_sort=start_datetime`);
// The first session that has not started (the day's earlier ones are over at STORY_NOW).
const session = answers.sessions.event_session._data.find((s) => Date.parse(s.start_datetime) > now.getTime() + 3600_000)!;
answers.session = await call('GET', `events/${id}/sessions/${session.id}?_embed=ticket_group,ticket_type`);

// A cart holding two admission tickets for that session, as the shopper's browser would have it.
const dated = answers.admission.ticket_type!._data.find((t) => {
  const group = answers.admission.ticket_group!._data.find((g) => g.id === t.ticket_group_id);
  return group && !group.flexible && group.hidden_type === 'public_browsable' && t.available;
})!;
// The group's visit survey answered (the checkout refuses a cart without its required answers).
const survey = { additional_info: { [dated.ticket_group_id]: { zip_code: '10024' } } };
const created = await call('POST', 'cart/modify', {
  add: [1, 2].map(() => ({ ticket_type_id: dated.id, event_session_id: session.id })),
  ...survey,
});
answers.cart = await call('GET', `cart/${created.cart._data[0].id}?_embed=venue`);

const storefront = answers.config.config._data.find((row) => row.key === 'storefront')!.value as StorefrontConfig;
// The checkout's reads: the card gateway's settings and the seller's donation group.
answers.payments = await call('GET', 'config?key._in=payments');
answers.donation = await call('GET', `ticket_group/${storefront.checkout_donation_tg_id}?_embed=ticket_type`);
// The membership event (its detail is the buy-membership form) and the levels' rules.
answers.membershipEvent = await call(
  'GET',
  `events/${storefront.membership_event_id}?_embed=ticket_group,ticket_type,message_rule,ticket_rule,meta,config,venue`,
);
answers.membershipRules = await call('GET', 'membership_rules?_embed=ticket_type,role,membership_program&_limit=1000');

// The guest pays that cart: first the test gateway's declined card (the refusal the checkout shows), then a card
// that succeeds; the order is what the confirmation, the account's order page and the manage screen read.
const cartRow = answers.cart.cart._data[0];
const card = (number: string) => ({ card: { number, exp_month: 12, exp_year: now.getUTCFullYear() + 4, cvc: '123' } });
const purchaser = await call('POST', 'user', {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.org',
  email_confirm: 'ada@example.org',
  zip_code: '10001',
});
const checkout = (number: string) => ({
  amount: cartRow.cart_fees.grand_totals.total_outstanding,
  gateway_id: 'test',
  gateway_data: card(number),
  guest_identity_id: purchaser.identity._data[0].id,
  send_email: true,
});
answers.declined = await refused('POST', `cart/${cartRow.id}/guest_checkout`, checkout(CARDS.declined), 402);
const paid = await call('POST', `cart/${cartRow.id}/guest_checkout`, checkout(CARDS.ok));
const orderId = paid.ticket_order._data[0].id;
answers.order = await call('GET', `ticket_order/${orderId}?_embed=ticket,ticket_type,ticket_group,event_template,venue`);
answers.selfEdit = await call('GET', `ticket_order/${orderId}/self_edit`);

// The demo member, logged in: who they are and their membership.
const guestCookies = cookies;
await call('POST', 'login', MEMBER);
answers.user = await call('GET', 'my/user?_embed=identity,identity.meta');
answers.memberships = await call('GET', 'my/membership?_embed=role,membership_program,role.membership_program');
// The member bought a ticket before, keeping the card; a second cart of theirs is on its way to the checkout.
const memberAdd = { add: [{ ticket_type_id: dated.id, event_session_id: session.id }], ...survey };
const bought = (await call('POST', 'cart/modify', memberAdd)).cart._data[0];
const boughtOrder = await call('POST', `cart/${bought.id}/guest_checkout`, {
  amount: bought.cart_fees.grand_totals.total_outstanding,
  gateway_id: 'test',
  gateway_data: card(CARDS.ok),
  send_email: true,
  save_payment_method: true,
});
const memberCart = (await call('POST', 'cart/modify', memberAdd)).cart._data[0];
answers.memberCart = await call('GET', `cart/${memberCart.id}?_embed=venue`);
answers.savedCards = await call('GET', 'my/identity/saved_payment_method');
const CATALOGUE_EMBED = 'ticket,ticket.ticket_type,ticket.ticket_group,ticket.event_template,venue';
answers.myOrders = await call('GET', `my/ticket_order?_embed=${CATALOGUE_EMBED}`);
answers.mySessions = await call(
  'GET',
  `my/order_session?_embed=${CATALOGUE_EMBED}&ticket.state._in=booked,redeemed&start_datetime._gte=${now.toISOString()}`,
);
answers.memberOrder = await call(
  'GET',
  `ticket_order/${boughtOrder.ticket_order._data[0].id}?_embed=ticket,ticket_type,ticket_group,event_template,venue`,
);
answers.accountMemberships = await call(
  'GET',
  'my/membership?_embed=role,identity_link,ticket,ticket_order,ticket.ticket_type,ticket.event_template,ticket.ticket_group,role.membership_program',
);

// The images the stories draw, as data: addresses by their path under the API: every image of the seller (the media
// route), the orders' and the membership's QR codes. A server's own copy of the demo seller has other ids for all
// of them, so the stories draw these (harness/images.ts).
const media = [
  ...(await handle.db.selectFrom('image').select('id').orderBy('key').execute()).map((row) => `image/${row.id}`),
  `ticket_order/${answers.memberOrder.ticket_order._data[0].id}/qrcode`,
  ...answers.accountMemberships.membership._data.map((m) => `membership/${m.id}/qrcode`),
];
answers.media = {};
for (const address of media) {
  const res = await send('GET', address);
  if (res.statusCode !== 200) throw new Error(`GET ${address}: ${res.statusCode} ${res.body}`);
  answers.media[address] = `data:${String(res.headers['content-type']).split(';')[0]};base64,${res.rawPayload.toString('base64')}`;
}
// The guest's order's QR code, read as its buyer's browser does (the member's login took that browser's cookie).
cookies = guestCookies;
const guestQr = await send('GET', `ticket_order/${orderId}/qrcode`);
if (guestQr.statusCode !== 200) throw new Error(`GET ticket_order/${orderId}/qrcode: ${guestQr.statusCode}`);
answers.media[`ticket_order/${orderId}/qrcode`] = `data:image/png;base64,${guestQr.rawPayload.toString('base64')}`;

await app.close();
await handle.close();
mkdirSync(path.dirname(OUT), { recursive: true });
// Rows the database stamps itself (created_at of an order, a saved card) carry the real time of the run: they are
// recorded at the pinned instant, as everything else is.
const runEnd = Date.now() + 1000;
const stamped = (value: unknown) =>
  typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) && Date.parse(value) >= runStart && Date.parse(value) <= runEnd;
const pinned = (_key: string, value: unknown) => (stamped(value) ? STORY_NOW : value);
writeFileSync(OUT, `${JSON.stringify(answers, pinned, 1)}\n`);
console.log(`recorded ${Object.keys(answers).length} answers at ${STORY_NOW} into ${path.relative(process.cwd(), OUT)}`);
