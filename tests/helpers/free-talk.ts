import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../../server/db';
import { Browser } from './app';
import type { AuthBrowser } from './auth';

/** The demo's free gallery talk (category tour, self-editable): its ticket type and its first session beyond 48 hours. */
export async function freeTalk(db: Db, now: Date): Promise<{ typeId: string; sessionId: string }> {
  const type = await db
    .selectFrom('ticket_type')
    .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
    .innerJoin('event_template', 'event_template.id', 'ticket_group.event_template_id')
    .select(['ticket_type.id', 'event_template.id as event_id'])
    .where('event_template.name', '=', 'Free Gallery Talk: Objects in Focus')
    .executeTakeFirstOrThrow();
  const session = await db
    .selectFrom('event_session')
    .select('id')
    .where('event_template_id', '=', type.event_id)
    .where('start_datetime', '>', new Date(now.getTime() + 48 * 3_600_000))
    .orderBy('start_datetime')
    .executeTakeFirstOrThrow();
  return { typeId: type.id, sessionId: session.id };
}

/** A guest's cart of `count` free places of the talk (the first named when `name` is given): the browser and cart id. */
export async function freeTalkCart(
  app: FastifyInstance,
  talk: { typeId: string; sessionId: string },
  opts: { count?: number; name?: string; browser?: Browser | AuthBrowser } = {},
) {
  const b = opts.browser ?? new Browser(app);
  const add = Array.from({ length: opts.count ?? 1 }, (_, i) => ({
    ticket_type_id: talk.typeId,
    event_session_id: talk.sessionId,
    ...(i === 0 && opts.name ? { admit_name: opts.name } : {}),
  }));
  const res = await b.post('/api/cart/modify?_seller=demo', { add });
  expect(res.status).toBe(200);
  return { b, cartId: res.body.cart._data[0].id as string };
}

/** The guest checks the cart out for free (purchaser `email`); the checkout's answer. */
export async function checkOutFree(b: Browser | AuthBrowser, cartId: string, email: string) {
  const user = await b.post('/api/user?_seller=demo', { first_name: 'Gwen', last_name: 'Guest', email, email_confirm: email });
  const paid = await b.post(`/api/cart/${cartId}/guest_checkout`, {
    amount: '0.00',
    gateway_id: 'free',
    guest_identity_id: user.body.identity._data[0].id,
    send_email: false,
  });
  expect(paid.status).toBe(200);
  return paid.body;
}
