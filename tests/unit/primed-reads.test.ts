import { afterEach, describe, expect, it } from 'vitest';
import type { AxiosAdapter } from 'axios';
import { JSDOM } from 'jsdom';
import { createApiClient } from '../../src/api/client';
import { createAxiosClient } from '../../src/api/axios-client';
import { getSellerConfig } from '../../src/api/config';
import { getAvailableEvents, getEvent } from '../../src/api/events';
import { BOOT_DATA_ID, configRead, readKey, readUrl } from '../../src/contract/first-reads';
import { primeReads, PRIMED_READS_TTL_MS, readBootData, takePrimedRead } from '../../src/api/primed-reads';

/** A client whose network is a counter: every request that leaves it is recorded and answered with `{}`. */
function countingClient() {
  const sent: string[] = [];
  let loads = 0;
  const network = createAxiosClient({ baseURL: '/api', seller: 'demo' });
  const adapter: AxiosAdapter = async (config) => {
    sent.push(network.getUri(config));
    return { status: 200, statusText: 'OK', headers: {}, config, data: { event_template: { _data: [{ id: 'net' }] } } };
  };
  network.defaults.adapter = adapter;
  // The storefront's client: the page's reads answered by itself, the network's client loaded for the first send.
  const api = createApiClient({ baseURL: '/api', seller: 'demo' }, async () => {
    loads += 1;
    return network;
  });
  return { api, sent, loads: () => loads };
}

const configBody = {
  seller: { _data: [{ id: 's1', slug: 'demo', name: 'Demo' }] },
  config: { _data: [{ key: 'strings', value: { a: 'b' } }] },
};

afterEach(() => primeReads({}, 0));

describe('readKey', () => {
  it('spells a read the same whether axios (bare commas, its own order) or URLSearchParams (encoded) wrote it', () => {
    const server = readUrl('/api', 'demo', configRead());
    expect(server).toBe('/api/config?_seller=demo&key._in=storefront%2Cstrings%2Ccontent_blocks');
    expect(readKey(server)).toBe(readKey('/api/config?key._in=storefront,strings,content_blocks&_seller=demo'));
    expect(readKey('/api/config?_seller=demo')).not.toBe(readKey('/api/config?_seller=other'));
    expect(readKey('/api/events/a?_seller=demo')).not.toBe(readKey('/api/events/b?_seller=demo'));
  });
});

describe('primed reads', () => {
  it('the client answers a primed read from the page once, then asks the network', async () => {
    const { api, sent, loads } = countingClient();
    primeReads({ [readKey(readUrl('/api', 'demo', configRead()))]: configBody });
    const config = await getSellerConfig(api);
    expect(config.seller.name).toBe('Demo');
    expect(config.strings).toEqual({ a: 'b' });
    expect(sent).toEqual([]);
    // Nothing was sent, so the network's client (axios, issue 19) was not even loaded.
    expect(loads()).toBe(0);
    await expect(getSellerConfig(api)).rejects.toMatchObject({ _code: 'seller_not_found' });
    expect(sent).toHaveLength(1);
    expect(loads()).toBe(1);
  });

  it('only the read with the same address and seller is answered; writes always go out', async () => {
    const { api, sent } = countingClient();
    primeReads({ [readKey('/api/events/e1?_seller=demo&_embed=venue,meta')]: { event_template: { _data: [{ id: 'page' }] } } });
    expect((await getEvent(api, 'e2')).event.id).toBe('net');
    await getAvailableEvents(api, { category: 'tours' });
    await api.post('events/e1?_embed=venue,meta', {});
    expect(sent).toHaveLength(3);
    expect((await getEvent(api, 'e1')).event.id).toBe('page');
    expect(sent).toHaveLength(3);
  });

  it("the page's answers are for the first screen only: after PRIMED_READS_TTL_MS they are dropped", () => {
    const key = readKey('/api/config?_seller=demo');
    primeReads({ [key]: configBody }, 1_000);
    expect(takePrimedRead('/api/config?_seller=demo', 1_000 + PRIMED_READS_TTL_MS + 1)).toBeUndefined();
    primeReads({ [key]: configBody }, 1_000);
    expect(takePrimedRead('/api/config?_seller=demo', 1_000 + PRIMED_READS_TTL_MS)).toEqual(configBody);
  });

  it('reads the boot data block, and ignores a page without one or with a broken one', () => {
    const doc = (html: string) => new JSDOM(`<!doctype html><head>${html}</head>`).window.document;
    const data = { deployment: { apiBaseUrl: '/api', cachedApiBaseUrl: '/cached_api', defaultSeller: 'demo' }, reads: {} };
    expect(readBootData(doc(`<script type="application/json" id="${BOOT_DATA_ID}">${JSON.stringify(data)}</script>`))).toEqual(data);
    expect(readBootData(doc(''))).toBeNull();
    expect(readBootData(doc(`<script type="application/json" id="${BOOT_DATA_ID}">{"deployment":</script>`))).toBeNull();
    expect(readBootData(doc(`<script type="application/json" id="${BOOT_DATA_ID}">{"reads":{}}</script>`))).toBeNull();
  });
});
