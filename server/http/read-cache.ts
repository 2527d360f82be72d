import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * A short-lived in-process cache of the public catalogue reads (events, sessions, calendar, ticket groups,
 * config): what an on-sale crowd asks for again and again, and what costs most to compute (a 120-day calendar
 * reads ~2,000 sessions). Those answers depend on the URL and the clock only, never on who asks.
 *
 * Freshness: every API write other than a catalogue read-by-POST (pricecheck, calendar and sessions with a
 * ticket selection) starts a new generation, so a shopper who reserved sees the new counts at once; otherwise an
 * answer lives `ttlMs` (a sales window opening or a session starting shows up within that time). Another server
 * process or `npm run seller:load` is only seen after `ttlMs`. Capacity itself is never decided here: the
 * reservation's conditional UPDATE is.
 */
const CACHEABLE =
  /^\/(?:cached_)?api\/(?:events\/[^/?]+(?:\/(?:sessions|calendar))?|events\/available|ticket_group\/[^/?]+|event_template|config)(?:\?|$)/;
const READ_BY_POST = /^\/(?:cached_)?api\/events\//;
const MAX_ENTRIES = 1000;

interface Entry {
  generation: number;
  expires: number;
  contentType: string;
  body: string;
}

/** Registers the cache; returns what empties it (a seller's presentation changed outside an API write: seller-watch.ts). */
export function registerReadCache(app: FastifyInstance, opts: { ttlMs: number; now?: () => number }): () => void {
  if (opts.ttlMs <= 0) return () => {};
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let generation = 0;
  // The generation a miss started in: an answer computed before a write committed is stored as already stale.
  const startedIn = new WeakMap<FastifyRequest, number>();

  const cacheable = (request: FastifyRequest) => request.method === 'GET' && CACHEABLE.test(request.url);

  app.addHook('onRequest', async (request, reply) => {
    if (!cacheable(request)) return;
    const entry = entries.get(request.url);
    if (!entry || entry.generation !== generation || entry.expires <= now()) {
      startedIn.set(request, generation);
      return;
    }
    return reply.type(entry.contentType).header('X-Read-Cache', 'hit').send(entry.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const started = startedIn.get(request);
    if (started !== generation || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    entries.set(request.url, {
      generation: started,
      expires: now() + opts.ttlMs,
      contentType: String(reply.getHeader('content-type') ?? 'application/json'),
      body: payload,
    });
    return payload;
  });

  const clear = () => {
    generation += 1;
    entries.clear();
  };
  app.addHook('onResponse', async (request) => {
    const method = request.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || READ_BY_POST.test(request.url)) return;
    clear();
  });
  return clear;
}
