import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COMPRESSION, chosenEncoding, compress } from './compression';

/**
 * A short-lived in-process cache of the public catalogue reads (events, sessions, calendar, ticket groups,
 * config): what an on-sale crowd asks for again and again, and what costs most to compute (a 120-day calendar
 * reads ~2,000 sessions). Those answers depend on the URL and the clock only, never on who asks.
 *
 * Freshness: an answer lives `ttlMs` (a sales window opening or a session starting shows up within that time). A
 * visitor who wrote (any API write other than a catalogue read-by-POST: pricecheck, calendar and sessions with a
 * ticket selection) sees it in their very next read: until `ttlMs` has passed, the cache gives their address only
 * answers computed after the write, so a shopper who reserved sees the new counts at once. Everyone else may see
 * counts up to `ttlMs` old, as they do from another server process; before, every write emptied the cache for
 * everyone, so beside an on-sale's reservations every read was computed again (a 120-day calendar beside 50 buyers:
 * 109 requests/s, where it answers 8,400 from memory). Capacity itself is never decided here: the reservation's
 * conditional UPDATE is.
 *
 * A kept answer is compressed once per encoding a browser asks for, not on every hit (@fastify/compress leaves an
 * answer that already has its Content-Encoding alone).
 */
const CACHEABLE =
  /^\/(?:cached_)?api\/(?:events\/[^/?]+(?:\/(?:sessions|calendar))?|events\/available|ticket_group\/[^/?]+|event_template|config)(?:\?|$)/;
const READ_BY_POST = /^\/(?:cached_)?api\/events\//;
const MAX_ENTRIES = 1000;
/** An answer whose computation took longer is not kept (and a write older than ttlMs + this is forgotten). */
const MAX_COMPUTE_MS = 10_000;
/** Writers remembered at most; past it the cache is emptied for everyone, as it once was on every write. */
const MAX_WRITERS = 100_000;

interface Entry {
  generation: number;
  /** the order number of the moment its computation started */
  seq: number;
  expires: number;
  contentType: string;
  body: string;
  /** the body compressed, per encoding, made on the first hit that asks for it */
  encoded: Map<'br' | 'gzip', Promise<Buffer>>;
}

/** Registers the cache; returns what empties it (a seller's presentation changed outside an API write: seller-watch.ts). */
export function registerReadCache(app: FastifyInstance, opts: { ttlMs: number; now?: () => number }): () => void {
  if (opts.ttlMs <= 0) return () => {};
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let generation = 0;
  // One counter orders the starts of computations and the writes: an answer serves a writer only if its computation
  // started after the writer's last write had committed.
  let seq = 0;
  /** address -> its last write (in order of writing, oldest first) */
  const writers = new Map<string, { seq: number; at: number }>();
  const startedIn = new WeakMap<FastifyRequest, { generation: number; seq: number; at: number }>();

  const cacheable = (request: FastifyRequest) => request.method === 'GET' && CACHEABLE.test(request.url);
  const isWrite = (request: FastifyRequest) => {
    const method = request.method;
    return !(method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || READ_BY_POST.test(request.url));
  };

  const clear = () => {
    generation += 1;
    entries.clear();
  };

  app.addHook('onRequest', async (request, reply) => {
    if (!cacheable(request)) return;
    const entry = entries.get(request.url);
    const at = now();
    if (!entry || entry.generation !== generation || entry.expires <= at || entry.seq < (writers.get(request.ip)?.seq ?? 0)) {
      startedIn.set(request, { generation, seq: ++seq, at });
      return;
    }
    reply.type(entry.contentType).header('X-Read-Cache', 'hit');
    const encoding = Buffer.byteLength(entry.body) >= COMPRESSION.threshold ? chosenEncoding(request) : null;
    if (!encoding) return reply.send(entry.body);
    let encoded = entry.encoded.get(encoding);
    if (!encoded) entry.encoded.set(encoding, (encoded = compress(encoding, entry.body)));
    try {
      const body = await encoded;
      return reply.header('Vary', 'accept-encoding').header('Content-Encoding', encoding).send(body);
    } catch {
      entry.encoded.delete(encoding);
      return reply.send(entry.body);
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // A write is marked before its answer leaves (it has committed by then), so the writer's next read sees it.
    if (isWrite(request)) {
      const at = now();
      writers.delete(request.ip);
      writers.set(request.ip, { seq: ++seq, at });
      for (const [ip, w] of writers) {
        if (w.at >= at - opts.ttlMs - MAX_COMPUTE_MS) break;
        writers.delete(ip);
      }
      if (writers.size > MAX_WRITERS) {
        writers.clear();
        clear();
      }
      return payload;
    }
    const started = startedIn.get(request);
    if (!started || started.generation !== generation || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const at = now();
    if (at - started.at > MAX_COMPUTE_MS) return payload;
    // Of two computations of one URL that overlapped, the one that started later is kept.
    const kept = entries.get(request.url);
    if (kept && kept.generation === generation && kept.seq > started.seq && kept.expires > at) return payload;
    if (entries.size >= MAX_ENTRIES && !entries.has(request.url)) entries.delete(entries.keys().next().value!);
    entries.set(request.url, {
      generation,
      seq: started.seq,
      expires: at + opts.ttlMs,
      contentType: String(reply.getHeader('content-type') ?? 'application/json'),
      body: payload,
      encoded: new Map(),
    });
    return payload;
  });

  return clear;
}
