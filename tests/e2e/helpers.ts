import { createRequire } from 'node:module';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }

/** Runs axe-core in the page and fails on any serious or critical violation (listing them readably). */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target) }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}

export interface ApiEvent { id: string; name: string; category: string }

/** The demo seller's events as the API lists them, for comparing with what the page shows. */
export async function apiEvents(request: APIRequestContext, params: Record<string, string> = {}): Promise<ApiEvent[]> {
  const query = new URLSearchParams({ _seller: 'demo', 'hidden_type._in': 'public_browsable', ...params });
  const response = await request.get(`/api/events/available?${query}`);
  expect(response.ok()).toBe(true);
  const body = await response.json();
  return body.event_template._data as ApiEvent[];
}

/** Names of the events the listing shows, once it has finished loading. */
export async function listedEventNames(page: Page): Promise<string[]> {
  await expect(page.locator('main [role="status"]').first()).not.toHaveText(/Loading/);
  return page.locator('.event-item__name').allTextContents();
}
