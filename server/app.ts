import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifyCompress from '@fastify/compress';
import { forgetHotRows } from './services/hot-cache';
import type { Deps } from './deps';
import { PACKAGE_ROOT } from './package-root';
import { DomainError, errorBody, statusOf } from './http/errors';
import { isDataException, redactDeep, serializeError } from './http/redact';
import { registerReadCache, withEmbeddedReads } from './http/read-cache';
import { COMPRESSION } from './http/compression';
import { watchSellerFolders } from './catalog/seller-watch';
import { registerApiRoutes } from './routes';
import { registerStripeWebhook } from './routes/stripe-webhook';
import registerOutbox from './routes/outbox';
import { createIndexPage, readIndexTemplate, serverRenderer, sessionMarked, sharedPage } from './http/index-html';
import { registerContractCheck } from './http/contract-check';
import { lazySchemaCompilers } from './http/lazy-compilers';
import { registerOpenApi } from './http/openapi';
import { registerStories } from './http/stories';
import { DeploymentConfig } from '../src/contract/storefront';

const API_PREFIXES = ['/api', '/cached_api'] as const;
const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';
/** The build's folder of hashed files (Vite's assetsDir), served for a year as they are. */
const ASSETS_PREFIX = 'assets';
const isApiPath = (url: string) => API_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));
/**
 * A path that names a file (its last segment ends in an extension, as /favicon.ico, /robots.txt, /apple-touch-icon.png):
 * no storefront route looks like that (slugs and ids have no dots), so it is a plain 404 rather than the storefront's
 * page, which would be a 26 KB answer with the seller's config read, sent for the icon every browser asks for.
 * /index.html stays the page.
 */
const namesAFile = (url: string) => /\.(?!html?$)[a-z0-9]{1,8}$/i.test(url.split('?')[0].split('/').pop() ?? '');
/** What the '/*' route answers with the storefront's page: neither an API path nor a file's. */
const isPagePath = (url: string) => !isApiPath(url) && !namesAFile(url);

/**
 * Scripts only from our own origin and the card provider (Stripe.js on checkout); no inline script, so seller
 * HTML that slipped past sanitising still cannot run, and no 'unsafe-eval': forms validate with validators the
 * server compiled (server/forms/validators.ts), so nothing in the storefront builds code from strings.
 * Inline styles stay allowed: content blocks and React style props use them, and styles cannot run code.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // The seller's tag manager container loads only when its config names one (src/analytics/start.tsx).
  "script-src 'self' https://js.stripe.com https://www.googletagmanager.com",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' https://api.stripe.com https://*.google-analytics.com https://*.googletagmanager.com",
  'frame-src https://js.stripe.com https://hooks.stripe.com',
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface BuildOptions {
  logger?: boolean | Record<string, unknown>;
  /** Validate every JSON answer against its declared schema (tests; default: CONTRACT_CHECK=1, which vitest sets). */
  contractCheck?: boolean;
}

/** The Fastify instance with every route; tests call buildApp(deps) and use app.inject(). */
export async function buildApp(deps: Deps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const logger =
    opts.logger === undefined || opts.logger === false
      ? false
      : ({
          ...(typeof opts.logger === 'object' ? opts.logger : {}),
          serializers: { err: serializeError },
        } as FastifyServerOptions['logger']);
  // Only the proxies TRUST_PROXY names decide request.ip and request.protocol (README, Configuration).
  const hops = deps.config.trustProxy;
  const trustProxy = typeof hops === 'number' ? (_address: string, hop: number) => hop < hops : hops;
  const app = Fastify({
    logger,
    trustProxy,
    // Slow clients (issue 20, finding 9): a connection that has not sent its headers within HEADERS_TIMEOUT_MS, or its
    // whole request within REQUEST_TIMEOUT_MS, gets 408 and is closed; the sweep that enforces it runs every second.
    requestTimeout: deps.config.requestTimeoutMs,
    serverFactory: (handler) => {
      const server = http.createServer(
        { headersTimeout: deps.config.headersTimeoutMs, requestTimeout: deps.config.requestTimeoutMs, connectionsCheckingInterval: 1000 },
        handler,
      );
      server.maxConnections = deps.config.maxConnections;
      server.keepAliveTimeout = deps.config.keepAliveTimeoutMs;
      return server;
    },
    bodyLimit: 1024 * 1024,
    // Fastify's own refusals (over-long path parameters, bad content) answer in the API's error shape too.
    frameworkErrors: (error, request, reply) => {
      const status = (error as FastifyError).statusCode ?? 400;
      const code = status === 414 ? 'uri_too_long' : 'bad_request';
      void request;
      return (reply as FastifyReply).status(status).send(errorBody(new DomainError(code, 'The request could not be read.')));
    },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true, allErrors: false, allowUnionTypes: true } },
    // Fastify's default validators and serializers, each compiled on its route's first request (server/http/lazy-compilers.ts).
    schemaController: { compilersFactory: lazySchemaCompilers() },
  });

  await app.register(fastifyCookie);
  // Before compression: the cache keeps the JSON text, compression then applies to hits and misses alike.
  // Pages too: the storefront's page (the '/*' route below) is the same for every visitor but a checkout's.
  const clearReadCache = registerReadCache(app, {
    ttlMs: deps.config.readCacheMs,
    now: () => deps.now().getTime(),
    page: (request) => request.routeOptions.url === '/*' && isPagePath(request.url) && sharedPage(request.url),
    pageVariant: (request) => (sessionMarked(request.headers.cookie) ? 'session' : ''),
  });
  // Config, strings, content blocks and flags edited in a watched seller folder reach GET config at once (README).
  if (deps.config.sellerWatchDirs?.length) {
    const stopWatching = watchSellerFolders(deps.db, {
      dirs: deps.config.sellerWatchDirs,
      onChange: () => {
        clearReadCache();
        forgetHotRows(deps);
      },
      onError: (message) => app.log.warn(message),
    });
    app.addHook('onClose', async () => stopWatching());
  }
  // API answers (a 120-day calendar is ~40 KB of JSON) and index.html go compressed; built assets are sent
  // precompressed by @fastify/static, and the read cache's hits compressed once per kept answer: this plugin leaves
  // both alone.
  await app.register(fastifyCompress, COMPRESSION);

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com")');
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (request.url.startsWith('/cached_api/') && request.method === 'GET' && reply.statusCode < 400) {
      reply.header('Cache-Control', 'public, max-age=30');
    } else if (isApiPath(request.url)) {
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });

  // Cookie-authenticated writes must come from the storefront: it alone sends this header (CSRF defence).
  app.addHook('onRequest', async (request) => {
    if (!isApiPath(request.url) || request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    // Stripe's webhook carries no cookie and proves itself by its signature instead.
    if (request.url === STRIPE_WEBHOOK_PATH) return;
    if (request.headers['x-ticketing-app'] !== 'ecomm') {
      throw new DomainError('csrf_header_missing', 'Requests that change data must carry the X-Ticketing-App header.');
    }
  });

  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    if (error instanceof DomainError) return reply.status(statusOf(error)).send(errorBody(error));
    if ((error as FastifyError).validation) {
      const v = (error as FastifyError).validation![0];
      const where = (error as FastifyError).validationContext ?? 'request';
      const field = [
        where,
        v?.instancePath?.replace(/^\//, '').replace(/\//g, '.'),
        (v?.params as any)?.missingProperty ?? (v?.params as any)?.additionalProperty,
      ]
        .filter(Boolean)
        .join('.');
      return reply
        .status(400)
        .send(
          errorBody(
            new DomainError('validation_failed', `Invalid ${field}: ${v?.message ?? 'bad value'}`, undefined, { field, rule: v?.keyword }),
          ),
        );
    }
    if (isDataException(error)) {
      return reply.status(400).send(errorBody(new DomainError('validation_failed', 'The request holds a value that cannot be stored.')));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'bad_request';
      return reply.status(status).send(errorBody(new DomainError(code, 'The request could not be read.')));
    }
    // Never the stack or the details in the answer; in the log, the request body with personal data redacted.
    request.log.error({ err: error, body: redactDeep(request.body), url: request.url.split('?')[0] }, 'unhandled error');
    return reply.status(500).send(errorBody(new DomainError('internal_error', 'Sorry! Something unexpected happened. Please try again.')));
  });

  // The API's routes as registered (method and URL pattern): property tests send generated input to each.
  const apiRoutes: Array<{ method: string; url: string }> = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') apiRoutes.push({ method, url: route.url });
  });
  if (opts.contractCheck ?? process.env.CONTRACT_CHECK === '1') registerContractCheck(app);
  // Before the routes: the document collects them as they are registered.
  await registerOpenApi(app, { docsPage: !deps.config.production });
  for (const prefix of API_PREFIXES) {
    await app.register(async (scope) => registerApiRoutes(scope, deps), { prefix });
  }
  await registerStripeWebhook(app, deps);

  // The storefront learns where the API is and which seller to show from this small deployment config.
  app.get('/storefront-config.json', { schema: { response: { 200: DeploymentConfig } } }, async () => ({
    apiBaseUrl: '/api',
    cachedApiBaseUrl: '/cached_api',
    defaultSeller: deps.config.defaultSeller,
  }));

  if (deps.config.outboxPage) await registerOutbox(app, deps);

  const indexHtml = path.join(deps.config.staticDir, 'index.html');
  const hasStatic = fs.existsSync(indexHtml);
  const indexPage = hasStatic
    ? createIndexPage(app, {
        ...readIndexTemplate(indexHtml, path.join(PACKAGE_ROOT, 'locales/en/translation.json')),
        defaultSeller: deps.config.defaultSeller,
        drawScreen: serverRenderer(deps.config.ssrDir, deps.now),
      })
    : null;
  if (hasStatic) {
    // The build's files are all under assets/ with their hash in the name (the page, index.html, is rendered by the
    // route below). The build writes .br and .gz beside each text file (vite.config.ts); they are sent when accepted.
    // One wildcard route: a route per file (wildcard: false) listed and registered some 700 routes on every start (about
    // 0.1 s of it); a file that is not there goes to the not-found handler, a plain 404, never the page.
    await app.register(fastifyStatic, {
      root: path.join(deps.config.staticDir, ASSETS_PREFIX),
      prefix: `/${ASSETS_PREFIX}/`,
      index: false,
      wildcard: true,
      preCompressed: true,
      setHeaders: (res) => res.header('Cache-Control', 'public, max-age=31536000, immutable'),
    });
  }

  await registerStories(app, deps.config, CONTENT_SECURITY_POLICY);

  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(404)
      .send(
        errorBody(
          new DomainError('not_found', 'Resource route not found.', undefined, { method: request.method, url: request.url.split('?')[0] }),
        ),
      );

  if (indexPage) {
    // Client-side routes: the storefront decides what a path shows, including its own 'Oops!' page. A route (not
    // the not-found handler) so the page goes compressed like any other answer.
    app.get('/*', async (request, reply) => {
      // An API path and a file path are not pages: the not-found handler below answers them.
      if (!isPagePath(request.url)) return reply.callNotFound();
      const { html, personal } = await withEmbeddedReads(request, (readHeaders) =>
        indexPage.render(request.url, request.log, { cookie: request.headers.cookie, address: request.ip, readHeaders }),
      );
      // A page with the visitor's own cart in it is kept nowhere; any other is checked again before each use.
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', personal ? 'private, no-store' : 'no-cache')
        .send(html);
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(request.url)) return notFound(request, reply);
    return reply.status(404).type('text/plain').send('Not found');
  });

  return app;
}
