import { describe, expect, it, vi } from 'vitest';
import type { AxiosInstance } from 'axios';
import { AddressLookupStore } from '../../src/stores/AddressLookupStore';
import { FLAT_2 } from '../helpers/fake-address';
import { addressesFrom, suggestionsFrom } from '../../server/services/address-lookup';
import { validateGuestIdentity } from '../../server/services/checkout/guest-identity';
import { addressFields, addressLookupOn, addressProblems } from '../../src/domain/address';

/** Issue 22: the provider's answers in our shape, what a pick fills in, and the postcode and state rules of spec
 *  section 5 that hold with and without the lookup (browser and server read the same ones). */
describe('provider answers', () => {
  it('keeps suggestions with an id, as bounded text', () => {
    expect(
      suggestionsFrom([
        { Id: 'A|1', Type: 'Address', Text: '10 Downing Street', Highlight: '0-2', Description: 'London, SW1A 2AA' },
        { Id: 'B|1', Type: 'Building', Text: 'x'.repeat(300), Description: 7 },
        { Type: 'Address', Text: 'no id' },
        null,
        'odd',
      ]),
    ).toEqual([
      { Id: 'A|1', Type: 'Address', Text: '10 Downing Street', Description: 'London, SW1A 2AA' },
      { Id: 'B|1', Type: 'Building', Text: 'x'.repeat(200), Description: '7' },
    ]);
  });

  it('maps a Retrieve item to Line1-Line5, City, Province / ProvinceCode, PostalCode and the country', () => {
    expect(
      addressesFrom([
        {
          Line1: ' 350 Fifth Avenue ',
          City: 'New York',
          ProvinceName: 'New York',
          ProvinceCode: 'NY',
          PostalCode: '10118',
          CountryIso2: 'us',
          Label: 'x',
        },
      ]),
    ).toEqual([
      {
        Line1: '350 Fifth Avenue',
        Line2: '',
        Line3: '',
        Line4: '',
        Line5: '',
        City: 'New York',
        Province: 'New York',
        ProvinceCode: 'NY',
        PostalCode: '10118',
        CountryIso2: 'US',
      },
    ]);
    expect(addressesFrom([{ Line1: 'a', CountryIso2: 'USA' }])[0].CountryIso2).toBe('');
  });
});

describe('a pick', () => {
  const row = {
    Line1: 'Flat 2',
    Line2: 'Riverside House',
    Line3: '2 Thames Walk',
    Line4: '',
    Line5: '',
    City: 'London',
    Province: 'Greater London',
    ProvinceCode: '',
    PostalCode: 'SE1 9PH',
    CountryIso2: 'GB',
  };
  it('fills address with Line1, address_more with the other lines, and the state with the code, else the name', () => {
    expect(addressFields(row)).toEqual({
      address: 'Flat 2',
      address_more: 'Riverside House, 2 Thames Walk',
      city: 'London',
      state: 'Greater London',
      zip_code: 'SE1 9PH',
      country: 'GB',
    });
    expect(addressFields({ ...row, Province: 'New York', ProvinceCode: 'NY', CountryIso2: '' })).not.toHaveProperty('country');
    expect(addressFields({ ...row, Province: 'New York', ProvinceCode: 'NY' }).state).toBe('NY');
  });

  it('is offered when the server has a provider and the seller has not switched it off', () => {
    expect(addressLookupOn({}, true)).toBe(true);
    expect(addressLookupOn({ flags: { address_lookup: false } }, true)).toBe(false);
    expect(addressLookupOn({ flags: { address_lookup: true } }, false)).toBe(false);
  });
});

describe('postcode and state rules (spec section 5)', () => {
  it.each([
    ['US', '10118', true],
    ['US', '1011', false],
    ['US', '10118-1234', false],
    ['US', 'AB123', false],
    ['GB', 'SW1A 2AA', true],
    ['GB', 'SE19PH', true],
    ['GB', 'M1 1AE', true],
    ['GB', '12345', false],
    ['GB', 'SW1A-2AA', false],
    ['', 'AB-1234', true],
    ['FR', '75001', true],
    ['', 'abc', false],
    ['', 'A1 B2 C3 D4 E5', false],
    ['', 'A1  B2', false],
  ])('%s zip %s valid: %s', (country, zip, ok) => {
    expect(!addressProblems({ country, zip_code: zip }).zip_code).toBe(ok);
  });

  it('wants a state only for a country with a state list', () => {
    expect(addressProblems({ country: 'US', state: '' }).state).toBe('state_required');
    expect(addressProblems({ country: 'ca' }).state).toBe('state_required');
    expect(addressProblems({ country: 'US', state: 'NY' }).state).toBeUndefined();
    expect(addressProblems({ country: 'GB', state: '' }).state).toBeUndefined();
    expect(addressProblems({ state: '' }).state).toBeUndefined();
  });

  it('the server holds them too', () => {
    const base = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org' };
    expect(() => validateGuestIdentity({ ...base, country: 'US', state: 'NY', zip_code: '1234' })).toThrow(/Zip/);
    expect(() => validateGuestIdentity({ ...base, country: 'US', zip_code: '10118' })).toThrow(/State/);
    expect(() => validateGuestIdentity({ ...base, country: 'GB', zip_code: '12345' })).toThrow(/Zip/);
    expect(validateGuestIdentity({ ...base, country: 'GB', zip_code: 'SW1A 2AA', address: '10 Downing Street' })).toMatchObject({
      zip_code: 'SW1A 2AA',
      address: '10 Downing Street',
      state: null,
    });
  });
});

describe('AddressLookupStore', () => {
  /** A client whose answers the test releases by hand, in any order. */
  function client() {
    const calls: Array<{ url: string; body: any; signal: AbortSignal; resolve: (data: unknown) => void; reject: (e: unknown) => void }> =
      [];
    const api = {
      post: (url: string, body: unknown, opts: { signal: AbortSignal }) =>
        new Promise((resolve, reject) => calls.push({ url, body, signal: opts.signal, resolve: (data) => resolve({ data }), reject })),
    } as unknown as AxiosInstance;
    return { api, calls };
  }
  const item = (Id: string, Type = 'Address') => ({ Id, Type, Text: Id, Description: '' });
  const tick = () => new Promise((r) => setTimeout(r, 0));

  it('searches from 4 characters after the pause, once for a burst of keys', async () => {
    vi.useFakeTimers();
    try {
      const { api, calls } = client();
      const store = new AddressLookupStore({ api });
      store.typed('Riv');
      vi.advanceTimersByTime(1000);
      expect(calls).toHaveLength(0);
      store.typed('Rive');
      vi.advanceTimersByTime(200);
      store.typed('River');
      vi.advanceTimersByTime(299);
      expect(calls).toHaveLength(0);
      vi.advanceTimersByTime(1);
      expect(calls.map((c) => c.body)).toEqual([{ text: 'River' }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never lets an older answer overwrite a newer one: the older request is aborted and its answer dropped', async () => {
    const { api, calls } = client();
    const store = new AddressLookupStore({ api, debounceMs: 0 });
    store.typed('downing');
    await new Promise((r) => setTimeout(r, 5));
    store.typed('downing street');
    await new Promise((r) => setTimeout(r, 5));
    expect(calls).toHaveLength(2);
    expect(calls[0].signal.aborted).toBe(true);
    calls[1].resolve({ items: [item('new')] });
    await tick();
    calls[0].resolve({ items: [item('old1'), item('old2')] });
    await tick();
    expect(store.items.map((i) => i.Id)).toEqual(['new']);
    expect(store.news).toEqual({ kind: 'found', count: 1 });
  });

  it('opens a container, retrieves an address into form fields, and switches to manual entry on a failure', async () => {
    const { api, calls } = client();
    const store = new AddressLookupStore({ api, debounceMs: 0 });
    const opened = store.choose(item('B|1', 'Building'));
    expect(calls[0].body).toEqual({ container: 'B|1' });
    calls[0].resolve({ items: [item('A|1'), item('A|2')] });
    expect(await opened).toBeNull();
    expect(store.items).toHaveLength(2);
    const picked = store.choose(item('A|2'));
    calls[1].resolve({ items: [FLAT_2] });
    expect(await picked).toMatchObject({
      address: 'Flat 2',
      address_more: 'Riverside House, 2 Thames Walk',
      zip_code: 'SE1 9PH',
      country: 'GB',
    });
    expect(store.items).toEqual([]);
    expect(store.news.kind).toBe('filled');
    store.typed('somewhere');
    await new Promise((r) => setTimeout(r, 5));
    calls[2].reject(new Error('address_lookup_failed'));
    await tick();
    expect(store.manual).toBe(true);
    expect(store.news).toEqual({ kind: 'manual' });
  });
});
