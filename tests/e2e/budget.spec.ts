import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { budgetViolations, measureBundles, ROUTES, type Budget } from '../../bench/bundle';
import { firstSessionTomorrow, reserveThroughApi } from './helpers';

const budget = JSON.parse(readFileSync(new URL('../../bench/budget.json', import.meta.url), 'utf8')) as Budget;

/**
 * The bundle budget (bench/budget.json) on the production build: what the events listing, an event detail,
 * the checkout and the account area load first, measured in the browser (bench/bundle.ts, shared with
 * `npm run bench`).
 */
test('each route loads no more than its budget allows', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  // The build the server serves (playwright.config.ts).
  const results = await measureBundles(browser, baseURL!, process.env.E2E_STATIC_DIR ?? 'dist');
  expect(results.map((r) => r.route)).toEqual([...ROUTES]);
  for (const r of results) {
    expect(r.js.count, `${r.route}: scripts loaded`).toBeGreaterThan(0);
    test.info().annotations.push({
      type: r.route,
      description: `${(r.js.gzipBytes / 1024).toFixed(1)} KB JS, ${(r.css.gzipBytes / 1024).toFixed(1)} KB CSS gzipped; ${r.markers.join(', ') || 'no form or card libraries'}${r.late.length ? `; late, not counted: ${r.late.join(', ')}` : ''}`,
    });
  }
  expect(budgetViolations(results, budget)).toEqual([]);
});

/**
 * The page names every chunk its entry imports (the vendor chunk, the runtime) in <link rel=modulepreload>, so they
 * download beside the entry instead of a round trip after it (vite.config.ts modulePreload.resolveDependencies).
 */
test('the page preloads the chunks its entry imports', async ({ request }) => {
  const staticDir = process.env.E2E_STATIC_DIR ?? 'dist';
  const manifest = JSON.parse(readFileSync(`${staticDir}/.vite/manifest.json`, 'utf8')) as Record<
    string,
    { file: string; imports?: string[] }
  >;
  const imported = (manifest['index.html'].imports ?? []).map((key) => manifest[key].file);
  expect(imported.some((file) => file.includes('vendor'))).toBe(true);
  const html = await (await request.get('/events')).text();
  for (const file of imported) expect(html, file).toContain(`<link rel="modulepreload" crossorigin href="/${file}">`);
});

/**
 * A checkout landed on from a link (a new page load) paints its summary from the cart the page came with
 * (server/http/index-html.ts): the browser sends no read of the cart before the summary shows.
 */
test('a checkout page load shows its cart without reading it again', async ({ page }) => {
  const session = await firstSessionTomorrow(page.request);
  const cartId = await reserveThroughApi(page, 'demo', session.sessionId, [session.types.Adult], {
    [session.groups.Adult]: { zip_code: '10024' },
  });
  const cartReads: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === `/api/cart/${cartId}`) cartReads.push(r.url());
  });
  await page.goto(`/checkout/${cartId}`);
  await expect(page.getByRole('heading', { name: 'Payment information' })).toBeVisible();
  await expect(page.locator('.checkout-summary')).toContainText('General Admission');
  expect(cartReads).toEqual([]);
});
