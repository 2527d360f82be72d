import { describe, expect, it } from 'vitest';
import { AxiosError, AxiosHeaders, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { imageUrl } from '../../src/api/client';
import { createAxiosClient, retryDelayMs, shouldRetryRead } from '../../src/api/axios-client';
import type { ApiClient } from '../../src/api/http';
import { ApiError, toApiError } from '../../src/api/errors';
import { bootstrap } from '../../src/boot';
import type { SellerConfig } from '../../src/api/config';

type Reply = { status: number; data: unknown } | 'network';

/** An axios adapter that answers from a script and records every request it saw. */
function scripted(replies: Reply[]) {
  const seen: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    const reply = replies[Math.min(seen.length - 1, replies.length - 1)];
    if (reply === 'network') throw new AxiosError('Network Error', 'ERR_NETWORK', config);
    const response = { status: reply.status, data: reply.data, statusText: '', headers: {}, config };
    if (reply.status >= 400) throw new AxiosError(`HTTP ${reply.status}`, 'ERR_BAD_RESPONSE', config, {}, response);
    return response;
  };
  return { adapter, seen };
}

function client(replies: Reply[]) {
  const api = createAxiosClient({ baseURL: '/api', seller: 'demo' });
  const script = scripted(replies);
  api.defaults.adapter = script.adapter;
  return { api, seen: script.seen };
}

const errorBody = {
  _data: [{ _code: 'event_session_sold_out', _context: 'reserve', _extra: { session: 's1' } }],
};

describe('api client', () => {
  it('sends the seller, the ecomm header and cookies', async () => {
    const { api, seen } = client([{ status: 200, data: { ok: true } }]);
    await api.get('events/available', { params: { category: 'x' } });
    expect(seen[0].params).toEqual({ _seller: 'demo', category: 'x' });
    expect(AxiosHeaders.from(seen[0].headers).get('X-Ticketing-App')).toBe('ecomm');
    expect(seen[0].withCredentials).toBe(true);
    expect(seen[0].baseURL).toBe('/api/');
  });

  it('turns an error body into an ApiError with _code, _context and _extra', async () => {
    const { api } = client([{ status: 409, data: errorBody }]);
    const error = await api.get('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      _code: 'event_session_sold_out',
      _context: 'reserve',
      _extra: { session: 's1' },
    });
  });

  it('retries a read 3 times on 502, doubling from 250 ms', async () => {
    const { api, seen } = client([
      { status: 502, data: '' },
      { status: 502, data: '' },
      { status: 502, data: '' },
      { status: 200, data: 'ok' },
    ]);
    const started = Date.now();
    const response = await api.get('x');
    expect(response.data).toBe('ok');
    expect(seen).toHaveLength(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250 + 500 + 1000 - 50);
  });

  it('gives up after 3 retries on a network error', async () => {
    const { api, seen } = client(['network']);
    const error = await api.get('x').catch((e: unknown) => e);
    expect(seen).toHaveLength(4);
    expect(error).toMatchObject({ status: 0, _code: 'network_error' });
  });

  it('does not retry writes, nor reads that failed with a 4xx or 500', async () => {
    const post = client([{ status: 502, data: '' }]);
    await post.api.post('cart', {}).catch(() => undefined);
    expect(post.seen).toHaveLength(1);
    const notFound = client([{ status: 404, data: { _data: [{ _code: 'not_found' }] } }]);
    await notFound.api.get('x').catch(() => undefined);
    expect(notFound.seen).toHaveLength(1);
    const serverError = client([{ status: 500, data: '' }]);
    await serverError.api.get('x').catch(() => undefined);
    expect(serverError.seen).toHaveLength(1);
  });

  it('retry policy and delays follow spec section 9', () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([250, 500, 1000]);
    const config = { method: 'get', headers: new AxiosHeaders() } as InternalAxiosRequestConfig;
    expect(shouldRetryRead(new AxiosError('timeout', 'ECONNABORTED', config))).toBe(true);
    expect(shouldRetryRead(new AxiosError('timeout', 'ECONNABORTED', { ...config, method: 'post' }))).toBe(false);
  });

  it('converts anything thrown into an ApiError', () => {
    expect(toApiError(new Error('boom'))).toMatchObject({ _code: 'unknown_error', message: 'unknown_error: boom' });
    const weird = new AxiosError(
      'bad',
      'ERR_BAD_RESPONSE',
      undefined,
      {},
      { status: 503, data: '<html>', statusText: '', headers: {}, config: {} as InternalAxiosRequestConfig },
    );
    expect(toApiError(weird)).toMatchObject({ status: 503, _code: 'unknown_error' });
  });

  it('builds image addresses with size hints', () => {
    expect(imageUrl('/api', 'img-1', { width: 544, height: 432 })).toBe('/api/image/img-1?sizex=544&sizey=432&shrinkonly=true');
    expect(imageUrl('/api/', 'img-1')).toBe('/api/image/img-1');
  });
});

describe('boot: which seller', () => {
  const deployment = { apiBaseUrl: '/api', cachedApiBaseUrl: '/cached_api', defaultSeller: 'demo' };
  const configFor = (slug: string): SellerConfig => ({
    seller: { id: `id-${slug}`, slug, name: slug, currency: 'USD', timezone: 'UTC', locale: 'en-US' },
    storefront: {},
    strings: {},
    contentBlocks: [],
  });
  /** A fake GET config that knows only the listed sellers. */
  const knows = (...slugs: string[]) => {
    const asked: string[] = [];
    const load = async (api: object) => {
      const seller = (api as unknown as { __seller: string }).__seller;
      asked.push(seller);
      if (!slugs.includes(seller)) throw new ApiError(404, 'seller_not_found', 'no');
      return configFor(seller);
    };
    return { load, asked };
  };
  // The client does not expose its seller, so read it back from a request the interceptor prepares.
  const sellerOf = async (api: ApiClient) => {
    const { adapter, seen } = scripted([{ status: 200, data: null }]);
    await api.get('probe', { adapter });
    return seen[0].params._seller as string;
  };
  const run = async (pathname: string, sellers: string[]) => {
    const fake = knows(...sellers);
    const result = await bootstrap(pathname, {
      fetchDeployment: async () => deployment,
      loadSellerConfig: async (api) => fake.load(Object.assign(api, { __seller: await sellerOf(api) })),
    });
    return { result, asked: fake.asked };
  };

  it('uses a first segment that names a seller as the prefix', async () => {
    const { result, asked } = await run('/museum/events', ['demo', 'museum']);
    expect(result.sellerPrefix).toBe('museum');
    expect(result.sellerConfig.seller.slug).toBe('museum');
    expect(asked).toEqual(['museum']);
  });
  it('falls back to the default seller when the segment is not a seller', async () => {
    const { result, asked } = await run('/nothing-here', ['demo']);
    expect(result.sellerPrefix).toBeNull();
    expect(result.sellerConfig.seller.slug).toBe('demo');
    expect(asked).toEqual(['nothing-here', 'demo']);
  });
  it('does not ask about route segments', async () => {
    const { result, asked } = await run('/events', ['demo']);
    expect(result.sellerPrefix).toBeNull();
    expect(asked).toEqual(['demo']);
  });
  it('fails when the API is down rather than guessing', async () => {
    await expect(
      bootstrap('/demo/events', {
        fetchDeployment: async () => deployment,
        loadSellerConfig: async () => {
          throw new ApiError(0, 'network_error', 'down');
        },
      }),
    ).rejects.toMatchObject({ _code: 'network_error' });
  });
});
