import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../server/db';
import { loadSellerFolder } from '../../server/catalog/loader';
import { hashPassword } from '../../server/services/password';
import { ECOMM, buildTestApp } from './app';

export const DEMO_MEMBER = {
  email: 'member@example.com',
  password: 'MuseumDemo2026!',
  scanCode: 'M20260001',
  zip: '10024',
  lastName: 'Rivera',
};

/** The app as served (every route, login included), ready for inject(). */
export const buildAuthApp = buildTestApp;

let ipSerial = 0;
/** A fresh client address per browser, so per-address limits of one test do not touch another. */
export const nextIp = () => `10.0.${Math.floor(++ipSerial / 250)}.${(ipSerial % 250) + 1}`;

/** A browser that keeps every cookie it is given (session and cart owner) and comes from its own address. */
export class AuthBrowser {
  cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    readonly ip = nextIp(),
    private readonly headers: Record<string, string> = { ...ECOMM },
  ) {}
  async request(method: 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.app.inject({
      method,
      url,
      ...(payload !== undefined ? { payload: payload as object } : {}),
      // Its own socket address (TRUST_PROXY is off: a forwarded header would not count).
      remoteAddress: this.ip,
      headers: { ...this.headers, ...(cookie ? { cookie } : {}), ...headers },
    });
    for (const c of res.cookies) {
      if (c.value === '' || (c.maxAge !== undefined && c.maxAge <= 0) || (c.expires && c.expires.getTime() < Date.now()))
        this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    const json = res.headers['content-type']?.toString().includes('json');
    return {
      status: res.statusCode,
      body: json ? res.json() : res.rawPayload,
      res,
      code: json ? res.json()?._data?.[0]?._code : undefined,
    };
  }
  get(url: string) {
    return this.request('GET', url);
  }
  post(url: string, payload: unknown = {}, headers?: Record<string, string>) {
    return this.request('POST', url, payload, headers);
  }
  patch(url: string, payload: unknown = {}) {
    return this.request('PATCH', url, payload);
  }
  put(url: string, payload: unknown = {}) {
    return this.request('PUT', url, payload);
  }
}

/** Loads the demo seller (with its member) and returns its id. */
export async function loadDemo(db: Db, now: Date): Promise<string> {
  return (await loadSellerFolder(db, path.resolve('sellers/demo'), { now })).sellerId;
}

/**
 * Switches the demo's upsell anchor rules off (Ocean Light's `upsell` entry and tickets_must_match_anchor_tickets), for a
 * test about something else (overlaps, prices) that puts an add-on in a cart of its own; tests/api/upsell.test.ts
 * tests the rules themselves.
 */
export async function dropAnchorRules(db: Db, sellerId: string) {
  await db
    .updateTable('event_template')
    .set({ config: sql`config - 'upsell'`, meta: sql`meta - 'tickets_must_match_anchor_tickets'` })
    .where('seller_id', '=', sellerId)
    .execute();
}

/** Sets the seller's configured login mode (and other auth settings). */
export async function setAuth(db: Db, sellerId: string, auth: Record<string, unknown>) {
  const seller = await db.selectFrom('seller').select('config').where('id', '=', sellerId).executeTakeFirstOrThrow();
  await db
    .updateTable('seller')
    .set({ config: JSON.stringify({ ...seller.config, auth: { login_path: '/login/callback', ...auth } }) })
    .where('id', '=', sellerId)
    .execute();
}

/** Another account: identity plus user, with a password when given. */
export async function addUser(
  db: Db,
  sellerId: string,
  u: { email: string; password?: string; first_name?: string; last_name?: string; zip_code?: string },
) {
  const identity = await db
    .insertInto('identity')
    .values({
      seller_id: sellerId,
      first_name: u.first_name ?? 'Alex',
      last_name: u.last_name ?? 'Other',
      email: u.email,
      zip_code: u.zip_code ?? null,
      additional_info: '{}',
      meta: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const user = await db
    .insertInto('app_user')
    .values({
      seller_id: sellerId,
      identity_id: identity.id,
      email: u.email,
      password_hash: u.password ? await hashPassword(u.password) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { identityId: identity.id, userId: user.id };
}

/** The seller's ticket type ids by `event/group/type` keys of its catalogue. */
export async function typeIdsByKey(db: Db, sellerId: string): Promise<Record<string, string>> {
  const rows = await db
    .selectFrom('ticket_type')
    .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
    .innerJoin('event_template', 'event_template.id', 'ticket_group.event_template_id')
    .select(['ticket_type.id', 'ticket_type.key as t', 'ticket_group.key as g', 'event_template.key as e'])
    .where('ticket_type.seller_id', '=', sellerId)
    .execute();
  return Object.fromEntries(rows.map((r) => [`${r.e}/${r.g}/${r.t}`, r.id]));
}

export async function identityOfEmail(db: Db, sellerId: string, email: string) {
  return await db
    .selectFrom('app_user')
    .select(['identity_id', 'id'])
    .where('seller_id', '=', sellerId)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirstOrThrow();
}

/**
 * A booked order for an identity: one ticket of the demo admission event in a session `daysAhead`
 * from `now` (a completed cart, as checkout leaves it).
 */
export async function insertOrder(db: Db, sellerId: string, identityId: string, opts: { now: Date; daysAhead?: number; handler?: string }) {
  const from = new Date(opts.now.getTime() + (opts.daysAhead ?? 2) * 86_400_000);
  const session = await db
    .selectFrom('event_session')
    .innerJoin('ticket_group', 'ticket_group.event_template_id', 'event_session.event_template_id')
    .innerJoin('ticket_type', 'ticket_type.ticket_group_id', 'ticket_group.id')
    .select(['event_session.id', 'event_session.event_template_id', 'ticket_group.id as group_id', 'ticket_type.id as type_id'])
    .where('event_session.seller_id', '=', sellerId)
    .where('event_session.start_datetime', '>=', from)
    .where('ticket_group.handler', '=', 'tickets')
    .orderBy('event_session.start_datetime')
    .limit(1)
    .executeTakeFirstOrThrow();
  const cart = await db
    .insertInto('cart')
    .values({ seller_id: sellerId, identity_id: identityId, state: 'completed', additional_info: '{}' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const order = await db
    .insertInto('ticket_order')
    .values({
      seller_id: sellerId,
      identity_id: identityId,
      cart_id: cart.id,
      purchased_on: opts.now,
      total_before_fees: 2500,
      total_after_fees: 2500,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ticket = await db
    .insertInto('ticket')
    .values({
      seller_id: sellerId,
      cart_id: cart.id,
      ticket_order_id: order.id,
      event_template_id: session.event_template_id,
      event_session_id: session.id,
      ticket_group_id: session.group_id,
      ticket_type_id: session.type_id,
      state: 'booked',
      handler: opts.handler ?? 'tickets',
      face_value: 2500,
      adjusted_value: 2500,
      scan_code: `T${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
      additional_info: '{}',
      handler_data: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { orderId: order.id, sessionId: session.id, ticketId: ticket.id, cartId: cart.id };
}

/** The newest outbox mail to an address (of a kind, when given). */
export async function lastMail(db: Db, to: string, kind?: string) {
  let q = db
    .selectFrom('mail_outbox')
    .selectAll()
    .where(sql<string>`lower(to_address)`, '=', to.toLowerCase());
  if (kind) q = q.where('kind', '=', kind);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
}
export async function mailCount(db: Db, to: string, kind?: string) {
  let q = db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(sql<string>`lower(to_address)`, '=', to.toLowerCase());
  if (kind) q = q.where('kind', '=', kind);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** The passcode and the one-time link's query of an OTP mail. */
export function otpOfMail(text: string) {
  const code = /passcode is (\w{6})\./.exec(text)?.[1];
  const link = /(https?:\/\/\S+)/.exec(text)?.[1];
  const url = link ? new URL(link) : null;
  return { code, link, path: url?.pathname, otp: url?.searchParams.get('otp'), linkToken: url?.searchParams.get('token') };
}
export function resetTokenOfMail(text: string) {
  const link = /(https?:\/\/\S+reset-password\S*)/.exec(text)?.[1];
  return link ? { link, path: new URL(link).pathname, token: new URL(link).searchParams.get('token')! } : null;
}
