import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { testClock, testDeps } from '../helpers/app';
import { AuthBrowser, addUser, buildAuthApp, loadDemo, mailCount, typeIdsByKey } from '../helpers/auth';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe';
import type { Deps } from '../../server/deps';
import { LIMITS } from '../../server/services/auth/rate-limit';
import { renewDueMemberships } from '../../server/services/membership/auto-renew';

/**
 * Saved payment methods (issue 22) on the demo seller, once with the built-in test gateway (a reusable token in its
 * vault) and once with the Stripe gateway against the fake Stripe (a Customer and an attached PaymentMethod): a
 * logged-in shopper keeps a card at checkout, lists it (never the number or the token), pays a second order with it,
 * removes it; another user can neither see, pay with nor remove it; a membership's auto-renew charges the member's
 * saved card, and without one the renewal fails and the member is told.
 */
const CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
const DAY = 86_400_000;
const PASSWORD = 'Saver-Pass-2026';

for (const gateway of ['test', 'stripe'] as const) {
  describeEachDatabase(`saved payment methods (${gateway} gateway)`, (ctx) => {
    let app: FastifyInstance;
    let deps: Deps;
    let sellerId: string;
    let stripe: FakeStripe | null = null;
    let users = 0;
    const clock = testClock(new Date('2026-05-04T13:00:00Z'));
    const db = () => ctx().db;
    const types: Record<string, string> = {};
    /** What pays by typing the card: the test gateway's card, or the PaymentMethod Stripe's element would make. */
    const typed = gateway === 'test' ? { card: CARD } : { payment_method: 'pm_card_visa' };

    beforeAll(async () => {
      sellerId = await loadDemo(db(), clock.now());
      deps = testDeps(ctx(), clock.now);
      if (gateway === 'stripe') {
        stripe = await startFakeStripe();
        deps.config = {
          ...deps.config,
          stripeSecretKey: 'sk_test_fake',
          stripePublishableKey: 'pk_test_fake',
          stripeWebhookSecret: 'whsec_test',
          stripeApiBase: stripe.url,
        };
      }
      app = await buildAuthApp(deps);
      Object.assign(types, await typeIdsByKey(db(), sellerId));
    });
    afterAll(async () => {
      await app?.close();
      await stripe?.close();
    });
    beforeEach(() => clock.advance(LIMITS.login_account.windowSeconds));

    async function newUser() {
      const email = `saver${++users}@example.org`;
      const u = await addUser(db(), sellerId, {
        email,
        password: PASSWORD,
        first_name: 'Sam',
        last_name: `Saver${users}`,
        zip_code: '10001',
      });
      const b = new AuthBrowser(app);
      expect((await b.post('/api/login?_seller=demo', { username: email, password: PASSWORD })).status).toBe(200);
      return { ...u, email, b };
    }
    /** A General Admission adult ticket in a new cart of the browser; answers the cart id and the amount. */
    async function cartFor(b: AuthBrowser) {
      const session = await db()
        .selectFrom('event_session')
        .innerJoin('event_template', 'event_template.id', 'event_session.event_template_id')
        .select('event_session.id')
        .where('event_template.seller_id', '=', sellerId)
        .where('event_template.key', '=', 'general-admission')
        .where('event_session.start_datetime', '>=', new Date(clock.now().getTime() + 2 * DAY))
        .orderBy('event_session.start_datetime')
        .limit(1)
        .executeTakeFirstOrThrow();
      const type = await db()
        .selectFrom('ticket_type')
        .select('ticket_group_id')
        .where('id', '=', types['general-admission/general/adult'])
        .executeTakeFirstOrThrow();
      const r = await b.post('/api/cart/modify?_seller=demo', {
        add: [{ ticket_type_id: types['general-admission/general/adult'], event_session_id: session.id }],
        additional_info: { [type.ticket_group_id]: { zip_code: '10001' } },
      });
      expect(r.status).toBe(200);
      const cart = r.body.cart._data[0];
      expect(cart.cart_fees.gateway_id).toBe(gateway);
      return { id: cart.id as string, amount: cart.cart_fees.grand_totals.total_outstanding as string };
    }
    const pay = (b: AuthBrowser, cart: { id: string; amount: string }, extra: Record<string, unknown>) =>
      b.post(`/api/cart/${cart.id}/guest_checkout`, { amount: cart.amount, gateway_id: gateway, send_email: false, ...extra });
    const list = (b: AuthBrowser) => b.get('/api/my/identity/saved_payment_method?_seller=demo');
    /** A user who kept a card at checkout: the user and the saved method's id. */
    async function saver() {
      const u = await newUser();
      const paid = await pay(u.b, await cartFor(u.b), { gateway_data: typed, save_payment_method: true });
      expect([paid.status, JSON.stringify(paid.body)]).toEqual([200, expect.anything()]);
      const saved = await list(u.b);
      expect(saved.status).toBe(200);
      expect(saved.body.saved_payment_method._count).toBe(1);
      return { ...u, methodId: saved.body.saved_payment_method._data[0].id as string, listed: saved };
    }
    const tokenOf = async (id: string) =>
      (await db().selectFrom('payment_method').select('token').where('id', '=', id).executeTakeFirstOrThrow()).token;

    it('a logged-in shopper keeps a card at checkout; the list shows brand, last 4 and expiry, never the number or token', async () => {
      const u = await saver();
      const row = u.listed.body.saved_payment_method._data[0];
      expect(row).toMatchObject({ gateway_id: gateway, brand: 'visa', last4: '4242', exp_month: 12 });
      expect(row.exp_year).toBeGreaterThan(2026);
      const token = await tokenOf(u.methodId);
      expect(token).toMatch(gateway === 'test' ? /^tpm_/ : /^pm_/);
      const text = JSON.stringify(u.listed.body);
      expect(text).not.toContain(token);
      expect(text).not.toContain(CARD.number);
      expect(u.listed.res.headers['cache-control']).toBe('private, no-store');
      if (stripe) {
        // Stripe keeps it on the user's Customer, attached by an intent with setup_future_usage.
        const pm = stripe.paymentMethods.get(token)!;
        expect(pm.customer).toMatch(/^cus_/);
        const intent = [...stripe.intents.values()].find((i) => i.payment_method === token)!;
        expect(intent).toMatchObject({ customer: pm.customer, setup_future_usage: 'off_session' });
      }
      // Without the opt-in nothing is kept.
      const other = await newUser();
      expect((await pay(other.b, await cartFor(other.b), { gateway_data: typed })).status).toBe(200);
      expect((await list(other.b)).body.saved_payment_method._count).toBe(0);
    });

    it('a second order is paid with the saved card without typing it', async () => {
      const u = await saver();
      const paid = await pay(u.b, await cartFor(u.b), { gateway_data: { saved_payment_method: u.methodId } });
      expect(paid.status).toBe(200);
      expect(paid.body.ticket_order._data).toHaveLength(1);
      if (stripe) {
        const token = await tokenOf(u.methodId);
        const intent = [...stripe.intents.values()].filter((i) => i.payment_method === token).at(-1)!;
        expect(intent.status).toBe('succeeded');
        expect(intent.customer).toBe(stripe.paymentMethods.get(token)!.customer);
      }
      // Paying with it kept no second copy.
      expect((await list(u.b)).body.saved_payment_method._count).toBe(1);
    });

    it("another user's saved card is 404 to list, pay with and remove; the token alone pays nothing", async () => {
      const owner = await saver();
      const thief = await newUser();
      expect((await list(thief.b)).body.saved_payment_method._data).toEqual([]);
      const cart = await cartFor(thief.b);
      const stolen = await pay(thief.b, cart, { gateway_data: { saved_payment_method: owner.methodId } });
      expect([stolen.status, stolen.code]).toEqual([404, 'payment_method_not_found']);
      const removed = await thief.b.request('DELETE', `/api/my/identity/saved_payment_method/${owner.methodId}?_seller=demo`);
      expect([removed.status, removed.code]).toEqual([404, 'payment_method_not_found']);
      expect((await list(owner.b)).body.saved_payment_method._count).toBe(1);
      // Even knowing the provider's token: the test gateway takes saved cards only from their owner's row, Stripe
      // refuses a PaymentMethod of another Customer.
      const token = await tokenOf(owner.methodId);
      const byToken = await pay(thief.b, cart, { gateway_data: { payment_method: token } });
      expect(byToken.status).toBe(402);
      // A guest can neither keep nor use one.
      const guest = new AuthBrowser(app);
      const gCart = await cartFor(guest);
      const user = await guest.post('/api/user?_seller=demo', {
        first_name: 'Gus',
        last_name: 'Guest',
        email: 'gus@example.org',
        zip_code: '10001',
      });
      const guestId = user.body.identity._data[0].id;
      const keep = await pay(guest, gCart, { gateway_data: typed, guest_identity_id: guestId, save_payment_method: true });
      expect([keep.status, keep.code]).toEqual([401, 'not_authenticated']);
      const use = await pay(guest, gCart, { gateway_data: { saved_payment_method: owner.methodId }, guest_identity_id: guestId });
      expect([use.status, use.code]).toEqual([401, 'not_authenticated']);
      expect((await guest.get('/api/my/identity/saved_payment_method?_seller=demo')).status).toBe(401);
    });

    it('removing a saved card takes it off the list and the provider forgets it; it pays nothing afterwards', async () => {
      const u = await saver();
      const token = await tokenOf(u.methodId);
      const removed = await u.b.request('DELETE', `/api/my/identity/saved_payment_method/${u.methodId}?_seller=demo`);
      expect(removed.status).toBe(200);
      expect(removed.body.saved_payment_method._data[0]).toMatchObject({ id: u.methodId, last4: '4242' });
      expect(JSON.stringify(removed.body)).not.toContain(token);
      expect((await list(u.b)).body.saved_payment_method._count).toBe(0);
      if (stripe) expect(stripe.paymentMethods.get(token)!.customer).toBeNull();
      else expect(await db().selectFrom('test_gateway_method').select('token').where('token', '=', token).execute()).toEqual([]);
      const again = await u.b.request('DELETE', `/api/my/identity/saved_payment_method/${u.methodId}?_seller=demo`);
      expect(again.status).toBe(404);
      const paid = await pay(u.b, await cartFor(u.b), { gateway_data: { saved_payment_method: u.methodId } });
      expect([paid.status, paid.code]).toEqual([404, 'payment_method_not_found']);
    });

    it("auto-renew charges the member's saved card; without one the renewal fails and the member is told", async () => {
      const start = clock.now();
      const role = await db()
        .selectFrom('role')
        .selectAll()
        .where('seller_id', '=', sellerId)
        .where('key', '=', 'individual')
        .executeTakeFirstOrThrow();
      const membership = (identityId: string, code: string) =>
        db()
          .insertInto('membership')
          .values({
            seller_id: sellerId,
            identity_id: identityId,
            role_id: role.id,
            membership_program_id: role.membership_program_id,
            scan_code: code,
            valid_from: new Date(start.getTime() - 360 * DAY),
            valid_to: new Date(start.getTime() + 30 * DAY),
            auto_renew_state: 'scheduled',
            member_event_purchase_limit: role.member_event_purchase_limit,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      // A member who saved a card at a later checkout (the membership itself names none), and one who removed theirs.
      const keeper = await saver();
      const kept = await membership(keeper.identityId, `R${gateway === 'test' ? 'T' : 'S'}00000001`);
      const remover = await saver();
      await db().updateTable('membership').set({ payment_method_id: null }).where('identity_id', '=', remover.identityId).execute();
      const bare = await membership(remover.identityId, `R${gateway === 'test' ? 'T' : 'S'}00000002`);
      await db().updateTable('membership').set({ payment_method_id: remover.methodId }).where('id', '=', bare.id).execute();
      expect((await remover.b.request('DELETE', `/api/my/identity/saved_payment_method/${remover.methodId}?_seller=demo`)).status).toBe(
        200,
      );

      clock.set(new Date(start.getTime() + 28 * DAY));
      await renewDueMemberships(deps);
      const next = await db().selectFrom('membership').selectAll().where('renewed_from_id', '=', kept.id).executeTakeFirstOrThrow();
      expect(next.payment_method_id).toBe(keeper.methodId);
      expect(await mailCount(db(), keeper.email, 'membership_renewed')).toBe(1);
      if (stripe) {
        // Off session, on the member's Customer, with the attached PaymentMethod.
        const token = await tokenOf(keeper.methodId);
        const asked = stripe.requests.filter((r) => r.path === '/v1/payment_intents' && r.body.off_session === 'true');
        expect(asked.map((r) => [r.body.payment_method, r.body.customer])).toEqual([[token, stripe.paymentMethods.get(token)!.customer]]);
      }
      // The member who removed their card: the membership's reference went with it, and no card means no renewal.
      expect(
        (await db().selectFrom('membership').select('payment_method_id').where('id', '=', bare.id).executeTakeFirstOrThrow())
          .payment_method_id,
      ).toBeNull();
      expect(await db().selectFrom('membership').select('id').where('renewed_from_id', '=', bare.id).execute()).toEqual([]);
      expect(await mailCount(db(), remover.email, 'membership_renewal_failed')).toBe(1);
      clock.set(start);
    });

    it('the first membership payment with auto-renew keeps the card, and the renewal charges it off session', async () => {
      const start = clock.now();
      const u = await newUser();
      const made = await u.b.post('/api/cart/modify?_seller=demo', {
        add: [{ ticket_type_id: types['membership/levels/individual'], party_role: 'member', admit_name: 'Ivy Individual' }],
      });
      expect(made.status).toBe(200);
      const cart = { id: made.body.cart._data[0].id as string, amount: made.body.cart._data[0].cart_fees.grand_totals.total_outstanding };
      // Auto-renew asks the gateway to keep the card without the shopper ticking 'save this card'.
      const paid = await pay(u.b, cart, { gateway_data: typed, auto_renew: true });
      expect([paid.status, JSON.stringify(paid.body)]).toEqual([200, expect.anything()]);
      const orderId = paid.body.ticket_order._data[0].id as string;
      const m = await db().selectFrom('membership').selectAll().where('ticket_order_id', '=', orderId).executeTakeFirstOrThrow();
      expect(m.auto_renew_state).toBe('scheduled');
      const token = await tokenOf(m.payment_method_id!);
      if (stripe) {
        // Stripe: the intent ran for the member's Customer with setup_future_usage off_session, which attached the card.
        const intent = [...stripe.intents.values()].find((i) => i.metadata.cart_id === cart.id)!;
        expect(intent).toMatchObject({
          customer: expect.stringMatching(/^cus_/),
          setup_future_usage: 'off_session',
          payment_method: token,
        });
        expect(stripe.paymentMethods.get(token)!.customer).toBe(intent.customer);
      }
      // Three days before the term ends the renewal job charges that card, nobody present.
      clock.set(new Date(new Date(m.valid_to).getTime() - 2 * DAY));
      try {
        await renewDueMemberships(deps);
        const next = await db().selectFrom('membership').selectAll().where('renewed_from_id', '=', m.id).executeTakeFirstOrThrow();
        expect(next.payment_method_id).toBe(m.payment_method_id);
        if (stripe) {
          const renewal = stripe.requests.filter(
            (r) => r.path === '/v1/payment_intents' && r.body.off_session === 'true' && r.body.payment_method === token,
          );
          expect(renewal).toHaveLength(1);
          expect(renewal[0].body.customer).toBe(stripe.paymentMethods.get(token)!.customer);
        }
      } finally {
        clock.set(start);
      }
    });
  });
}
