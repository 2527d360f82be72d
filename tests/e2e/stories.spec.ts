import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { STORY_MARKER } from '../../src/stories/harness/marker';

/** Every file of a build folder, recursively. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}
const holdsMarker = (dir: string) => filesOf(dir).filter((f) => /\.(js|html)$/.test(f) && readFileSync(f, 'utf8').includes(STORY_MARKER));

test.describe('/_stories, the component viewer', () => {
  test('the storefront build holds no story; the stories build does', () => {
    const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8')) as Record<string, { src?: string }>;
    const sources = Object.values(manifest).map((chunk) => chunk.src ?? '');
    expect(sources.length).toBeGreaterThan(5);
    expect(sources.filter((src) => src.includes('.stories.') || src.startsWith('src/stories/'))).toEqual([]);
    expect(holdsMarker('dist')).toEqual([]);
    // The same scan finds the marker where stories are: the check can fail.
    expect(existsSync('dist-stories/index.html'), 'run `npm run stories:build` before the browser tests').toBe(true);
    expect(holdsMarker('dist-stories').length).toBeGreaterThan(0);
  });

  test('lists the screens and components, and draws a story with the seller theme', async ({ page }) => {
    await page.goto('/_stories');
    // '/_stories' -> '/_stories/' (the viewer may go on to its first story).
    await expect(page).toHaveURL(/\/_stories\/(\?story=[\w-]+)?$/);
    const nav = page.getByRole('navigation');
    for (const name of ['Screens', 'Components']) await expect(nav.getByText(name, { exact: true }).first()).toBeVisible();
    const stories = JSON.parse(readFileSync('dist-stories/meta.json', 'utf8')).stories as Record<string, unknown>;
    for (const id of [
      'screens--events-ready',
      'screens--event-detail-sold-out',
      'components--cart--widget-with-tickets',
      'screens--checkout--ready',
      'screens--account--membership',
      'components--reservation--citypass-empty',
    ])
      expect(Object.keys(stories)).toContain(id);

    await page.goto('/_stories/?story=screens--events-ready&mode=preview');
    await expect(page.getByRole('heading', { level: 1, name: 'Choose your events' })).toBeVisible();
    // The demo seller's primary colour (#1f4e79) on the buttons, as the storefront applies it.
    await expect(page.getByRole('link', { name: /View event/ }).first()).toHaveCSS('background-color', 'rgb(31, 78, 121)');
  });

  test("draws the seller's images from the recording: none is asked of the API, where their ids are unknown", async ({ page }) => {
    const failed: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    await page.goto('/_stories/?story=screens--events-ready&mode=preview');
    await expect(page.getByRole('heading', { level: 1, name: 'Choose your events' })).toBeVisible();
    const images = page.locator('img');
    await expect(images.first()).toBeVisible();
    // Every image on the page, the logo and the events' pictures (the lazy ones below the fold too), has loaded.
    await images.evaluateAll((all) => all.forEach((img) => ((img as HTMLImageElement).loading = 'eager')));
    await expect.poll(() => images.evaluateAll((all) => all.filter((img) => !(img as HTMLImageElement).naturalWidth).length)).toBe(0);
    expect(await images.count()).toBeGreaterThan(3);
    expect(failed).toEqual([]);
  });

  test('draws the checkout with its sections, its states and the CityPASS codes', async ({ page }) => {
    await page.goto('/_stories/?story=screens--checkout--ready&mode=preview');
    await expect(page.getByRole('heading', { level: 1, name: 'Payment information' })).toBeVisible();
    for (const section of ['Your details', 'Add a donation'])
      await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Pay now' })).toBeVisible();

    await page.goto('/_stories/?story=screens--checkout--payment-error&mode=preview');
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined' })).toBeVisible();

    await page.goto('/_stories/?story=screens--checkout--completion&mode=preview');
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();

    await page.goto('/_stories/?story=components--reservation--citypass-format-error&mode=preview');
    await expect(page.getByText('Does not match the expected format. Please check your CityPASS code.')).toHaveCount(2);
  });
});
