import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { buildTestApp, testDeps } from '../helpers/app';

/** A stand-in for `npm run stories:build` output (dist-stories/): Ladle's page, one asset, its story list. */
function storiesBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'stories-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Ladle</title><div id="ladle-root"></div>');
  writeFileSync(path.join(dir, 'assets', 'index.js'), 'console.log("ladle")');
  writeFileSync(path.join(dir, 'meta.json'), JSON.stringify({ stories: { 'screens--events-ready': { name: 'Events ready' } } }));
  return dir;
}

/** A built storefront page (dist/index.html), so the storefront's catch-all route is there to answer any path. */
function storefrontBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'storefront-'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Tickets</title><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>',
  );
  return dir;
}

/** The component viewer (README "Stories") is served at /_stories/ only outside production and only once built. */
describeEachDatabase('/_stories', (ctx) => {
  const builtDir = storiesBuild();
  const apps: FastifyInstance[] = [];
  const staticDir = storefrontBuild();
  const appWith = async (production: boolean, storiesDir: string) => {
    const deps = testDeps(ctx());
    const app = await buildTestApp({ ...deps, config: { ...deps.config, production, storiesDir, staticDir } });
    apps.push(app);
    return app;
  };
  let dev: FastifyInstance;
  let prod: FastifyInstance;
  let unbuilt: FastifyInstance;
  beforeAll(async () => {
    dev = await appWith(false, builtDir);
    prod = await appWith(true, builtDir);
    unbuilt = await appWith(false, path.join(builtDir, 'not-built'));
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  it('outside production serves the built viewer, its assets and story list, with a policy that lets it run', async () => {
    const page = await dev.inject({ url: '/_stories/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ladle-root');
    expect(page.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-eval'");
    expect((await dev.inject({ url: '/_stories/assets/index.js' })).statusCode).toBe(200);
    expect((await dev.inject({ url: '/_stories/meta.json' })).json().stories).toHaveProperty('screens--events-ready');
    const bare = await dev.inject({ url: '/_stories' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/_stories/');
  });

  it("the storefront's own pages keep their policy without unsafe-eval", async () => {
    const res = await dev.inject({ url: '/storefront-config.json' });
    expect(res.headers['content-security-policy']).not.toContain('unsafe-eval');
  });

  it('in production /_stories is a 404 even when the folder is there, not the storefront page', async () => {
    expect((await prod.inject({ url: '/events' })).statusCode).toBe(200);
    for (const url of ['/_stories', '/_stories/', '/_stories/meta.json', '/_stories/assets/index.js']) {
      const res = await prod.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('ladle');
    }
  });

  it('without a build /_stories is a 404', async () => {
    expect((await unbuilt.inject({ url: '/_stories/' })).statusCode).toBe(404);
  });
});
