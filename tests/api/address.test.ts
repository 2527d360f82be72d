import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testDeps } from '../helpers/app';
import { insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { FLAT_2, startFakeAddressProvider, type FakeAddressProvider } from '../helpers/fake-address';
import { LIMITS } from '../../server/services/auth/rate-limit';

/**
 * Address lookup through our server (issue 22): POST address/find and address/retrieve against a provider of Loqate's
 * shape (tests/helpers/fake-address.ts). The key stays on the server, a provider's failure is address_lookup_failed
 * without its words, and each client address has an allowance.
 */
describeEachDatabase('address lookup', (ctx) => {
  let app: FastifyInstance;
  let bare: FastifyInstance;
  let fx: CartFixture;
  let provider: FakeAddressProvider;
  let clientNo = 0;
  /** A client of its own network address, so the allowance of one test does not spill into another. */
  const client = (a = app) => new Browser(a, `10.22.0.${++clientNo}`);
  const find = (body: unknown, b = client()) => b.post(`/api/address/find?_seller=${fx.slug}`, body);
  const retrieve = (id: string, b = client()) => b.post(`/api/address/retrieve?_seller=${fx.slug}`, { id });

  beforeAll(async () => {
    provider = await startFakeAddressProvider();
    fx = await insertCartFixture(ctx().db, { slug: 'addressshop' });
    await insertCartFixture(ctx().db, { slug: 'nolookup' });
    await ctx()
      .db.updateTable('seller')
      .set({ config: JSON.stringify({ flags: { address_lookup: false } }) })
      .where('slug', '=', 'nolookup')
      .execute();
    const deps = testDeps(ctx());
    deps.config = { ...deps.config, addressLookupUrl: provider.url, addressLookupKey: provider.key, addressLookupTimeoutMs: 500 };
    app = await buildTestApp(deps);
    bare = await buildTestApp(testDeps(ctx()));
  });
  afterAll(async () => {
    await app?.close();
    await bare?.close();
    await provider?.close();
  });
  beforeEach(() => {
    provider.mode = 'ok';
  });

  it('finds addresses for what was typed, in our shape, with the key sent to the provider only', async () => {
    const res = await find({ text: 'fifth' });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { Id: 'US|1001', Type: 'Address', Text: '350 Fifth Avenue', Description: 'New York NY, 10118' },
      { Id: 'US|1003', Type: 'Address', Text: '351 Fifth Street', Description: 'Brooklyn NY, 11215' },
    ]);
    const last = provider.requests.at(-1)!;
    expect(last.path).toBe('/Find/v1.10/json3.ws');
    expect(last.params).toMatchObject({ Key: provider.key, Text: 'fifth' });
  });

  it('opens a container (a building) into its flats, and retrieves a flat in full', async () => {
    const building = (await find({ text: 'riverside' })).body.items;
    expect(building).toEqual([
      { Id: 'GB|B|riverside', Type: 'Building', Text: 'Riverside House, 2 Thames Walk', Description: 'London, SE1 9PH - 3 Addresses' },
    ]);
    const flats = await find({ container: building[0].Id });
    expect(flats.status).toBe(200);
    expect(flats.body.items.map((i: { Text: string }) => i.Text)).toEqual([
      'Flat 1, Riverside House, 2 Thames Walk',
      'Flat 2, Riverside House, 2 Thames Walk',
      'Flat 3, Riverside House, 2 Thames Walk',
    ]);
    expect(provider.requests.at(-1)!.params).toMatchObject({ Container: 'GB|B|riverside' });
    const flat = await retrieve(flats.body.items[1].Id);
    expect(flat.status).toBe(200);
    expect(flat.body.items).toEqual([FLAT_2]);
    expect(provider.requests.at(-1)).toMatchObject({ path: '/Retrieve/v1.20/json3.ws', params: { Id: 'GB|3002', Key: provider.key } });
  });

  it('retrieves a US address with its state code', async () => {
    const res = await retrieve('US|1002');
    const { Line1, City, Province, ProvinceCode, PostalCode } = res.body.items[0];
    expect([Line1, City, Province, ProvinceCode, PostalCode]).toEqual([
      '1600 Pennsylvania Avenue NW',
      'Washington',
      'District of Columbia',
      'DC',
      '20500',
    ]);
  });

  it('answers nothing for an empty search without asking the provider', async () => {
    const before = provider.requests.length;
    expect((await find({ text: '  ' })).body).toEqual({ items: [] });
    expect(provider.requests.length).toBe(before);
  });

  it.each(['refuse', 'broken', 'hang'] as const)(
    "a provider that fails (%s) is address_lookup_failed (502), without the provider's words",
    async (mode) => {
      provider.mode = mode;
      for (const res of [await find({ text: 'downing' }), await retrieve('GB|2001')]) {
        expect(res.status).toBe(502);
        expect(res.body._data[0]._code).toBe('address_lookup_failed');
        const text = JSON.stringify(res.body);
        for (const words of Object.values(provider.refusal)) if (words.length > 2) expect(text).not.toContain(words);
        expect(text).not.toContain('Internal error');
      }
    },
  );

  it('an unknown id is address_lookup_failed too', async () => {
    const res = await retrieve('GB|nope');
    expect(res.status).toBe(502);
    expect(res.body._data[0]._code).toBe('address_lookup_failed');
  });

  it('never sends the key to a browser: not in any answer, not in GET config', async () => {
    const answers = [
      await find({ text: 'downing' }),
      await find({ container: 'GB|B|riverside' }),
      await retrieve('GB|2001'),
      await client().get(`/api/config?_seller=${fx.slug}`),
    ];
    provider.mode = 'refuse';
    answers.push(await find({ text: 'downing' }));
    for (const res of answers) {
      expect(JSON.stringify(res.body)).not.toContain(provider.key);
      expect(JSON.stringify(res.res.headers)).not.toContain(provider.key);
      expect(JSON.stringify(res.body)).not.toContain(provider.url);
    }
  });

  it('GET config says whether the lookup is on: the server needs a provider, and the seller may switch it off', async () => {
    const flag = async (a: FastifyInstance, slug: string) => {
      const res = await client(a).get(`/api/config?_seller=${slug}&key._in=storefront`);
      return res.body.config._data[0].value.flags.address_lookup;
    };
    expect(await flag(app, fx.slug)).toBe(true);
    expect(await flag(app, 'nolookup')).toBe(false);
    expect(await flag(bare, fx.slug)).toBe(false);
    // And the routes agree: 404 address_lookup_unavailable, the provider not asked.
    const before = provider.requests.length;
    for (const res of [
      await client().post('/api/address/find?_seller=nolookup', { text: 'downing' }),
      await client(bare).post(`/api/address/find?_seller=${fx.slug}`, { text: 'downing' }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body._data[0]._code).toBe('address_lookup_unavailable');
    }
    expect(provider.requests.length).toBe(before);
  });

  it('refuses bodies outside the contract', async () => {
    expect((await find({ text: 'x'.repeat(201) })).status).toBe(400);
    expect((await find({ text: 'a\u0000b' })).status).toBe(400);
    expect((await client().post(`/api/address/retrieve?_seller=${fx.slug}`, {})).status).toBe(400);
    expect((await find({ text: 'downing', key: 'other' })).status).toBe(400);
  });

  it('limits the lookups of one client address (429 with Retry-After), not those of another', async () => {
    const b = client();
    const { max } = LIMITS.address_lookup_ip;
    for (let i = 0; i < max; i++) expect((await find({ text: `downing ${i % 2 ? '' : 'street'}` }, b)).status).toBe(200);
    const over = await find({ text: 'downing' }, b);
    expect(over.status).toBe(429);
    expect(over.body._data[0]._code).toBe('rate_limited');
    expect(Number(over.res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await retrieve('GB|2001', b)).status).toBe(429);
    expect((await find({ text: 'downing' })).status).toBe(200);
  });
});
