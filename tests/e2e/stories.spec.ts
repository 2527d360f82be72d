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
    await expect(page).toHaveURL(/\/_stories\/$/);
    const nav = page.getByRole('navigation');
    for (const name of ['Screens', 'Components']) await expect(nav.getByText(name, { exact: true }).first()).toBeVisible();
    const stories = JSON.parse(readFileSync('dist-stories/meta.json', 'utf8')).stories as Record<string, unknown>;
    for (const id of ['screens--events-ready', 'screens--event-detail-sold-out', 'components--cart--widget-with-tickets'])
      expect(Object.keys(stories)).toContain(id);

    await page.goto('/_stories/?story=screens--events-ready&mode=preview');
    await expect(page.getByRole('heading', { level: 1, name: 'Choose your events' })).toBeVisible();
    // The demo seller's primary colour (#1f4e79) on the buttons, as the storefront applies it.
    await expect(page.getByRole('link', { name: /View event/ }).first()).toHaveCSS('background-color', 'rgb(31, 78, 121)');
  });
});
