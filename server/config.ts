import path from 'node:path';
import { readPinnedClock, type PinnedClock } from './clock';

/** Connections the server's socket queues while they wait to be accepted: Node's default (511) overflowed when the
 *  bench's 2,000 buyers connected at once. The kernel caps it at net.core.somaxconn (4096 on current Linux). */
export const LISTEN_BACKLOG = 4096;

/** Server settings, read once from the environment (README "Configuration"). */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** DATABASE_POOL_SIZE: connections one process keeps to PostgreSQL (measured best on the 2-core bench machine). */
  databasePoolSize: number;
  smtpUrl?: string;
  stripeSecretKey?: string;
  stripePublishableKey?: string;
  stripeWebhookSecret?: string;
  /** STRIPE_API_BASE: a Stripe-compatible server instead of Stripe itself (tests, stripe-mock). */
  stripeApiBase?: string;
  /** ADDRESS_LOOKUP_URL, ADDRESS_LOOKUP_KEY: the address provider (Loqate's Find/Retrieve shape); both set turn the
   *  checkout's address lookup on. The key stays on the server (services/address-lookup.ts). */
  addressLookupUrl?: string;
  addressLookupKey?: string;
  /** ADDRESS_LOOKUP_TIMEOUT_MS: how long a provider call may take before the lookup counts as failed. */
  addressLookupTimeoutMs: number;
  production: boolean;
  /** Folder of the built storefront served at /. */
  staticDir: string;
  /** Folder of the server's renderer (`vite build --ssr`, src/entry-server.tsx); without it no screen is drawn on the
   *  server. */
  ssrDir: string;
  /** Folder of the built component viewer (`npm run stories:build`), served at /_stories/ outside production. */
  storiesDir: string;
  /** Public address of the storefront for links in e-mails (never taken from a request's Host header). */
  publicUrl: string;
  /** Slug of the seller served when a request names none. */
  defaultSeller: string;
  /** Seller folder loaded on first start when the database holds no seller. */
  demoSellerDir: string;
  /** How long a public catalogue read may be answered from memory (server/http/read-cache.ts); 0 turns it off. */
  readCacheMs: number;
  /** Serve the kept mail (passcodes, reset links) at /_outbox to loopback clients: only when a developer asks
   *  for it (OUTBOX_PAGE=1), never in production. */
  outboxPage: boolean;
  /**
   * Which proxies' X-Forwarded-For and X-Forwarded-Proto to believe (TRUST_PROXY): none when unset, so a client
   * cannot choose the address the rate limits count or whether cookies are Secure; a hop count ('1') or a list of
   * proxy addresses or CIDR ranges when the server runs behind a proxy.
   */
  trustProxy: false | number | string;
  /** Slow clients (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, MAX_CONNECTIONS): how long a request's headers and the
   *  whole request may take, and how many connections one process keeps open at once. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
  /** KEEP_ALIVE_TIMEOUT_MS: how long an idle keep-alive connection stays open. Longer than a proxy's or a client's
   *  idle time (60 s at common load balancers), so the other side closes first: with Node's 5 s, a client reusing a
   *  connection just as the server closed it got ECONNRESET (a CI run failed on it). */
  keepAliveTimeoutMs: number;
  /** Tests only (TEST_NOW, TEST_NOW_SINCE): the clock pinned to an instant; server/clock.ts. */
  pinnedClock?: PinnedClock;
  /** Tests only (TEST_GATEWAY_LATENCY_MS): how long the test gateway takes to answer after it has charged. */
  testGatewayLatencyMs?: number;
  /** SELLER_WATCH_DIRS: seller folders whose config, strings and content blocks the running server applies on change (seller-watch.ts). */
  sellerWatchDirs: string[];
  /** How old an unsettled payment attempt must be before the reconciler settles it (RECONCILE_AFTER_MS). */
  reconcileAfterMs: number;
  /**
   * OpenID Connect client secrets (OIDC_CLIENT_SECRET_<SLUG>, else OIDC_CLIENT_SECRET), by seller slug, '*' for the
   * generic one: they stay on the server, never in the seller config the storefront reads (services/auth/oidc.ts).
   */
  oidcClientSecrets: Record<string, string>;
  /** ALTCHA_HMAC_KEY: signs the captcha challenges the server hands out (services/captcha/altcha.ts); unset, a seller
   *  asking for captcha cannot take guest checkouts (captcha_unavailable) rather than take them unchecked. */
  altchaHmacKey?: string;
  /** How often a process looks for due jobs (JOBS_POLL_MS, default 2000; server/jobs/runner.ts). */
  jobsPollMs: number;
  /** Tests only (TEST_JOB_CLAIM_UNGUARDED_GAP_MS): claim jobs without their row locks, reading the due rows and claiming
   *  them this many milliseconds later (the control of the claim tests: runners starting together take the same jobs). */
  jobClaimUnguardedGapMs?: number;
  /**
   * Wallet pass credentials (WALLET_CONFIG_<SLUG>, else WALLET_CONFIG): the path of each seller's wallet file, by slug
   * suffix, '*' for the generic one. The file names the Apple and Google credentials (services/wallet/credentials.ts);
   * like the OIDC secrets they never reach the seller config the storefront reads.
   */
  walletConfigFiles: Record<string, string>;
}

/** The pool size that served the most reservations a second in `npm run bench` here (5, 10 and 20 measured). */
export const DEFAULT_POOL_SIZE = 10;

/**
 * The environment with its empty variables taken out: `DATA_DIR=` (or `DATA_DIR=$UNSET`) means the default, not the
 * working folder, where the embedded database would otherwise have written its files beside the sources.
 */
function setVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
}

export function readConfig(given: NodeJS.ProcessEnv = process.env): ServerConfig {
  const env = setVariables(given);
  const root = process.cwd();
  const production = env.NODE_ENV === 'production';
  const outboxPage = env.OUTBOX_PAGE === '1';
  // The outbox shows live passcodes and reset links: asking for it in production is a mistake, said at start.
  if (production && outboxPage)
    throw new Error('OUTBOX_PAGE=1 is refused with NODE_ENV=production: the outbox page shows passcodes and reset links');
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(root, env.DATA_DIR ?? '.data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: positive(env.DATABASE_POOL_SIZE, DEFAULT_POOL_SIZE),
    smtpUrl: env.SMTP_URL || undefined,
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    stripeApiBase: env.STRIPE_API_BASE || undefined,
    addressLookupUrl: env.ADDRESS_LOOKUP_URL || undefined,
    addressLookupKey: env.ADDRESS_LOOKUP_KEY || undefined,
    addressLookupTimeoutMs: positive(env.ADDRESS_LOOKUP_TIMEOUT_MS, 5000),
    production,
    staticDir: path.resolve(root, env.STATIC_DIR ?? 'dist'),
    ssrDir: path.resolve(root, env.SSR_DIR ?? 'dist-ssr'),
    storiesDir: path.resolve(root, env.STORIES_DIR ?? 'dist-stories'),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${env.PORT ?? 3000}`).replace(/\/$/, ''),
    defaultSeller: env.DEFAULT_SELLER ?? 'demo',
    demoSellerDir: path.resolve(root, env.DEMO_SELLER_DIR ?? 'sellers/demo'),
    readCacheMs: env.READ_CACHE_MS === undefined ? 1000 : Math.max(0, Number(env.READ_CACHE_MS) || 0),
    outboxPage,
    pinnedClock: readPinnedClock(env),
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    headersTimeoutMs: positive(env.HEADERS_TIMEOUT_MS, 10_000),
    requestTimeoutMs: positive(env.REQUEST_TIMEOUT_MS, 30_000),
    maxConnections: positive(env.MAX_CONNECTIONS, 1024),
    keepAliveTimeoutMs: positive(env.KEEP_ALIVE_TIMEOUT_MS, 72_000),
    testGatewayLatencyMs: testOnlyNumber(env, 'TEST_GATEWAY_LATENCY_MS'),
    altchaHmacKey: env.ALTCHA_HMAC_KEY || undefined,
    jobsPollMs: positive(env.JOBS_POLL_MS, 2000),
    jobClaimUnguardedGapMs: testOnlyNumber(env, 'TEST_JOB_CLAIM_UNGUARDED_GAP_MS'),
    reconcileAfterMs: positive(env.RECONCILE_AFTER_MS, 5 * 60 * 1000),
    oidcClientSecrets: readOidcClientSecrets(env),
    walletConfigFiles: Object.fromEntries(Object.entries(readPerSeller(env, 'WALLET_CONFIG')).map(([k, v]) => [k, path.resolve(root, v)])),
    sellerWatchDirs: (env.SELLER_WATCH_DIRS ?? '')
      .split(',')
      .map((dir) => dir.trim())
      .filter(Boolean)
      .map((dir) => path.resolve(root, dir)),
  };
}

/**
 * A per-seller setting: NAME_<SLUG> per seller (the slug upper-cased, anything but letters and digits as '_': seller
 * `city-museum` reads NAME_CITY_MUSEUM) and NAME for every seller without its own; keyed by that suffix, '*'.
 */
export function readPerSeller(env: NodeJS.ProcessEnv, name: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (!value) continue;
    if (key === name) values['*'] = value;
    else if (key.startsWith(`${name}_`)) values[key.slice(name.length + 1)] = value;
  }
  return values;
}

/** The value of a per-seller setting for `slug` (its own, else the generic one). */
export function forSeller<T>(values: Record<string, T>, slug: string): T | undefined {
  return values[slug.toUpperCase().replace(/[^A-Z0-9]/g, '_')] ?? values['*'];
}

/** OIDC_CLIENT_SECRET_<SLUG> per seller and OIDC_CLIENT_SECRET for every seller without its own. */
export const readOidcClientSecrets = (env: NodeJS.ProcessEnv) => readPerSeller(env, 'OIDC_CLIENT_SECRET');

/** The client secret of a seller's identity provider, or undefined for a public client (PKCE only). */
export function oidcClientSecret(config: Pick<ServerConfig, 'oidcClientSecrets'>, slug: string): string | undefined {
  return forSeller(config.oidcClientSecrets, slug);
}

/** TRUST_PROXY: unset or empty trusts nobody; digits are a hop count; anything else a comma list of addresses/CIDRs. */
export function readTrustProxy(value: string | undefined): false | number | string {
  const v = value?.trim();
  if (!v || v === 'false' || v === '0') return false;
  if (/^\d+$/.test(v)) return Number(v);
  if (v === 'true')
    throw new Error("TRUST_PROXY=true would believe any client's X-Forwarded-For: give the hop count or the proxies' addresses");
  return v;
}

const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return value !== undefined && Number.isInteger(n) && n > 0 ? n : fallback;
};

/** A setting that only tests may give: refused in production, like TEST_NOW. */
function testOnlyNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (env.NODE_ENV === 'production') throw new Error(`${name} is refused with NODE_ENV=production: it is a test-only setting`);
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number of milliseconds, not '${value}'`);
  return n;
}
