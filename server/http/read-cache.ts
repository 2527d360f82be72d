import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COMPRESSION, chosenEncoding, compress } from './compression';

/**
 * A short-lived in-process cache of the public catalogue reads (events, sessions, calendar, ticket groups,
 * config) and of the storefront pages that carry them (`page`: server/http/index-html.ts): what an on-sale crowd
 * asks for again and again, and what costs most to compute (a 120-day calendar reads ~2,000 sessions; an event's
 * page makes four reads and compresses some 80 KB). Those answers depend on the URL and the clock only, never on
 * who asks.
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
 * Requests that miss while the same answer is being computed wait for that computation instead of making their own
 * (when it started after their own last write): when an answer expires under a crowd, it is computed once, not
 * once per waiting request.
 *
 * A kept answer is compressed once per encoding a browser asks for, not on every hit (@fastify/compress leaves an
 * answer that already has its Content-Encoding alone).
 */
const CACHEABLE =
  /^\/(?:cached_)?api\/(?:events\/[^/?]+(?:\/(?:sessions|calendar))?|events\/available|ticket_group\/[^/?]+|event_template|config)(?:\?|$)/;
const READ_BY_POST = /^\/(?:cached_)?api\/events\//;
const MAX_ENTRIES = 1000;
/** What the kept answers may weigh in all (their text and compressed copies); the oldest go first. */
const MAX_BYTES = 64 * 1024 * 1024;
/** An answer whose computation took longer is not kept (and a write older than ttlMs + this is forgotten). */
const MAX_COMPUTE_MS = 10_000;
/** Writers remembered at most; past it the cache is emptied for everyone, as it once was on every write. */
const MAX_WRITERS = 100_000;

type Encoding = 'br' | 'gzip';

/** The oldest kept answer a page's reads were given: the page is kept as no newer and no longer-lived than it. */
interface Embedded {
  seq: number;
  expires: number;
}
/** A page's reads carry this header with a token of the page's own (a header nobody else can name a page by). */
const EMBED_HEADER = 'x-read-cache-page';
const embedding = new Map<string, Embedded>();
const embeddedIn = new WeakMap<FastifyRequest, Embedded>();

/**
 * Runs `make`, which reads kept answers through the app (with `readHeaders`) to build the page `request` answers
 * (index-html.ts), and notes the oldest of them: kept, the page then serves a writer only if all it carries was
 * computed after their write, and lives no longer than the reads in it. (A header, not AsyncLocalStorage: on Node 20
 * that would put a hook on every promise of the process.)
 */
export async function withEmbeddedReads<T>(request: FastifyRequest, make: (readHeaders: Record<string, string>) => Promise<T>): Promise<T> {
  const noted: Embedded = { seq: Infinity, expires: Infinity };
  const token = randomUUID();
  embeddedIn.set(request, noted);
  embedding.set(token, noted);
  try {
    return await make({ [EMBED_HEADER]: token });
  } finally {
    embedding.delete(token);
  }
}

interface Entry {
  generation: number;
  /** the order number of the moment its computation started */
  seq: number;
  expires: number;
  contentType: string;
  /** the answer's own Cache-Control (a page's), given again with each hit */
  cacheControl?: string;
  body: string;
  /** the body's length in UTF-8 bytes */
  size: number;
  /** body and compressed copies, in bytes (UTF-16 for the text) */
  bytes: number;
  /** the body compressed, per encoding, made on the first hit that asks for it */
  encoded: Map<Encoding, Promise<Buffer>>;
}

/** A computation under way: the requests that miss meanwhile wait for what it keeps. */
interface Flight {
  generation: number;
  seq: number;
  done: Promise<Entry | null>;
  finish: (entry: Entry | null) => void;
}

export interface ReadCacheOptions {
  ttlMs: number;
  now?: () => number;
  /** GET requests of pages every visitor gets alike, kept too when their answer is not private */
  page?: (request: FastifyRequest) => boolean;
  /** What such a page depends on besides its URL (one kept page per URL and variant): the drawn header of a visitor
   *  who may be logged in differs from everyone else's (index-html.ts `sessionMarked`). */
  pageVariant?: (request: FastifyRequest) => string;
}

/** Registers the cache; returns what empties it (a seller's presentation changed outside an API write: seller-watch.ts). */
export function registerReadCache(app: FastifyInstance, opts: ReadCacheOptions): () => void {
  if (opts.ttlMs <= 0) return () => {};
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let generation = 0;
  // One counter orders the starts of computations and the writes: an answer serves a writer only if its computation
  // started after the writer's last write had committed.
  let seq = 0;
  /** address -> its last write (in order of writing, oldest first) */
  const writers = new Map<string, { seq: number; at: number }>();
  const flights = new Map<string, Flight>();
  /** A computation's request: where it started in the order of writes, and where its answer is kept (keyOf). */
  const startedIn = new WeakMap<FastifyRequest, { generation: number; seq: number; at: number; flight: Flight; key: string }>();

  const isPage = (request: FastifyRequest) => !CACHEABLE.test(request.url) && (opts.page?.(request) ?? false);
  const cacheable = (request: FastifyRequest) => request.method === 'GET' && (CACHEABLE.test(request.url) || isPage(request));
  /** Where a request's answer is kept: its URL, and a page's variant. */
  const keyOf = (request: FastifyRequest) => {
    const variant = opts.pageVariant && isPage(request) ? opts.pageVariant(request) : '';
    return variant ? `${request.url}\n${variant}` : request.url;
  };
  const isWrite = (request: FastifyRequest) => {
    const method = request.method;
    return !(method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || READ_BY_POST.test(request.url));
  };
  const lastWrite = (request: FastifyRequest) => writers.get(request.ip)?.seq ?? 0;

  const forget = (url: string) => {
    const entry = entries.get(url);
    if (!entry) return;
    entries.delete(url);
    bytes -= entry.bytes;
  };
  const keep = (url: string, entry: Entry) => {
    forget(url);
    while (entries.size > 0 && (entries.size >= MAX_ENTRIES || bytes + entry.bytes > MAX_BYTES)) forget(entries.keys().next().value!);
    entries.set(url, entry);
    bytes += entry.bytes;
  };
  const clear = () => {
    generation += 1;
    entries.clear();
    bytes = 0;
  };

  async function serve(request: FastifyRequest, reply: FastifyReply, entry: Entry, key: string) {
    const token = request.headers[EMBED_HEADER];
    const noted = typeof token === 'string' ? embedding.get(token) : undefined;
    if (noted) {
      noted.seq = Math.min(noted.seq, entry.seq);
      noted.expires = Math.min(noted.expires, entry.expires);
    }
    reply.type(entry.contentType).header('X-Read-Cache', 'hit');
    if (entry.cacheControl) reply.header('Cache-Control', entry.cacheControl);
    const encoding = entry.size >= COMPRESSION.threshold ? chosenEncoding(request) : null;
    if (!encoding) return reply.send(entry.body);
    let encoded = entry.encoded.get(encoding);
    if (!encoded) {
      entry.encoded.set(encoding, (encoded = compress(encoding, entry.body)));
      void encoded.then(
        (b) => {
          entry.bytes += b.length;
          if (entries.get(key) === entry) bytes += b.length;
        },
        () => {},
      );
    }
    try {
      const body = await encoded;
      return reply.header('Vary', 'accept-encoding').header('Content-Encoding', encoding).send(body);
    } catch {
      entry.encoded.delete(encoding);
      return reply.send(entry.body);
    }
  }

  const usable = (entry: Entry | null | undefined, request: FastifyRequest, at: number): entry is Entry =>
    !!entry && entry.generation === generation && entry.expires > at && entry.seq > lastWrite(request);

  app.addHook('onRequest', async (request, reply) => {
    if (!cacheable(request)) return;
    const key = keyOf(request);
    const kept = entries.get(key);
    if (usable(kept, request, now())) return serve(request, reply, kept, key);
    // The same answer being computed already, started after this visitor's last write: wait for it.
    const flight = flights.get(key);
    if (flight && flight.generation === generation && flight.seq > lastWrite(request)) {
      const shared = await flight.done;
      if (usable(shared, request, now())) return serve(request, reply, shared, key);
    }
    let finish!: (entry: Entry | null) => void;
    const done = new Promise<Entry | null>((resolve) => (finish = resolve));
    const own: Flight = { generation, seq: ++seq, done, finish };
    // Waiters never wait longer than a computation may take.
    const timer = setTimeout(() => own.finish(null), MAX_COMPUTE_MS);
    timer.unref();
    void done.then(() => {
      clearTimeout(timer);
      if (flights.get(key) === own) flights.delete(key);
    });
    flights.set(key, own);
    startedIn.set(request, { generation, seq: own.seq, at: now(), flight: own, key });
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
    if (!started) return payload;
    const at = now();
    const cacheControl = reply.getHeader('cache-control');
    if (
      started.generation !== generation ||
      reply.statusCode !== 200 ||
      typeof payload !== 'string' ||
      at - started.at > MAX_COMPUTE_MS ||
      // a page with the visitor's own data in it
      String(cacheControl ?? '').includes('private')
    ) {
      started.flight.finish(null);
      return payload;
    }
    // A page is as old as the oldest kept answer it carries.
    const noted = embeddedIn.get(request);
    const entry: Entry = {
      generation,
      seq: Math.min(started.seq, noted?.seq ?? Infinity),
      expires: Math.min(at + opts.ttlMs, noted?.expires ?? Infinity),
      contentType: String(reply.getHeader('content-type') ?? 'application/json'),
      ...(cacheControl !== undefined ? { cacheControl: String(cacheControl) } : {}),
      body: payload,
      size: Buffer.byteLength(payload),
      bytes: payload.length * 2,
      encoded: new Map(),
    };
    // Of two computations of one URL that overlapped, the one that started later is kept.
    const kept = entries.get(started.key);
    if (!(kept && kept.generation === generation && kept.seq > entry.seq && kept.expires > at)) keep(started.key, entry);
    started.flight.finish(entry);
    return payload;
  });

  // A computation that ended without an answer to keep (an error, a client gone) lets its waiters go.
  app.addHook('onResponse', async (request) => {
    startedIn.get(request)?.flight.finish(null);
  });

  return clear;
}
