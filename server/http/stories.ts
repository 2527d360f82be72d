import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ServerConfig } from '../config';

export const STORIES_PREFIX = '/_stories/';

/**
 * The component viewer (Ladle, README "Stories") at /_stories/: the folder `npm run stories:build` writes, served only
 * outside production and only when it has been built. Otherwise /_stories answers 404 itself, so the storefront's
 * catch-all never answers for it with a page.
 */
export async function registerStories(
  app: FastifyInstance,
  config: Pick<ServerConfig, 'production' | 'storiesDir'>,
  contentSecurityPolicy: string,
): Promise<void> {
  const served = !config.production && fs.existsSync(path.join(config.storiesDir, 'index.html'));
  if (!served) {
    const notFound = async (_request: unknown, reply: FastifyReply) => reply.status(404).type('text/plain').send('Not found');
    app.get('/_stories', notFound);
    app.get('/_stories/*', notFound);
    return;
  }
  // Ladle's viewer builds its story order from a string (new Function): its pages alone may evaluate strings. Its
  // own scope, so the storefront's policy stays as it is everywhere else.
  const storiesPolicy = contentSecurityPolicy.replace("script-src 'self'", "script-src 'self' 'unsafe-eval'");
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('Content-Security-Policy', storiesPolicy);
      return payload;
    });
    await scope.register(fastifyStatic, {
      root: config.storiesDir,
      prefix: STORIES_PREFIX,
      // The storefront's own registration decorates the reply; this second root must not again.
      decorateReply: false,
      index: ['index.html'],
      setHeaders: (res) => res.header('Cache-Control', 'no-cache'),
    });
  });
  // '/_stories' -> '/_stories/', the address the viewer's build is made for (Ladle's base).
  app.get('/_stories', async (_request, reply) => reply.redirect(STORIES_PREFIX));
}
