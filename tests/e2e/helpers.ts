import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { dateIn, plusDays } from '../helpers/instants';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Waits until the page is alive (src/app/AppTree.tsx). A page the server drew (the listing, an event's page, a checkout) shows its
 * screen before the client has taken it over: its controls are held (a test's fill or click waits for them), but a
 * link clicked before then is a full page load rather than the app's own navigation.
 */
export async function untilAlive(page: Page): Promise<void> {
  await expect(page.locator('#root > fieldset.app-hold:not([disabled])')).toBeAttached();
}

/**
 * For a page the server draws: keeps the nodes `selectors` name as the HTML parser made them (the document turns
 * 'interactive' when parsing ends, before any deferred or module script runs); `drawnStillShown` then says whether
 * each is still the one on screen (hydrated, not drawn again). Console errors and page errors are collected.
 */
export async function watchDrawnPage(page: Page, selectors: string[]) {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript((list: string[]) => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      (window as unknown as { drawn?: (Element | null)[] }).drawn = list.map((sel) => document.querySelector(`#root[data-drawn] ${sel}`));
    });
  }, selectors);
  const drawnStillShown = () =>
    page.evaluate(() => (window as unknown as { drawn?: (Element | null)[] }).drawn?.map((node) => node?.isConnected ?? false) ?? null);
  return { errors, drawnStillShown };
}

/** Every axe-core violation in the page, readably. */
async function axeViolations(page: Page) {
  // A live page: axe passes over controls that are held while the page is not yet the client's.
  await untilAlive(page);
  // A settled page: a list dimmed while it reloads (the events listing refetches once the visitor turns out to be
  // a member) is not what the visitor reads, and axe would measure its contrast through the dimming.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  // Evaluated through the debugging protocol, not as a <script> tag: the Content-Security-Policy refuses
  // inline scripts, as it should.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target) }));
  });
}

/** Runs axe-core in the page and fails on any serious or critical violation (listing them readably). */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}

/** Runs axe-core in the page and fails on any violation at all, minor ones included. */
export async function expectNoA11yViolations(page: Page): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

export interface ApiEvent {
  id: string;
  name: string;
  category: string;
}

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

export interface TomorrowSession {
  eventId: string;
  eventName: string;
  sessionId: string;
  startIso: string;
  /** ticket type id by name ('Adult', 'Child', ...) of the session's groups */
  types: Record<string, string>;
  /** ticket group id by ticket type name */
  groups: Record<string, string>;
}

/** The admission event's first session tomorrow (venue-local date), with its ticket types, from the API. */
export async function firstSessionTomorrow(request: APIRequestContext, seller = 'demo'): Promise<TomorrowSession> {
  const config = await (await request.get(`/api/config?_seller=${seller}`)).json();
  const storefront = config.config._data.find((c: { key: string }) => c.key === 'storefront').value;
  const timezone: string = config.seller._data[0].timezone;
  const eventId: string = storefront.admission_event_id;
  const tomorrow = venueDatePlus(timezone, 1);
  const sessions = await (
    await request.get(`/api/events/${eventId}/sessions?_seller=${seller}&_sort=start_datetime&start_datetime._ondate=${tomorrow}&_limit=1`)
  ).json();
  const session = sessions.event_session._data[0];
  expect(session, `a session on ${tomorrow}`).toBeTruthy();
  const detail = await (await request.get(`/api/events/${eventId}?_seller=${seller}&_embed=ticket_group,ticket_type`)).json();
  const types: Record<string, string> = {};
  const groups: Record<string, string> = {};
  for (const type of detail.ticket_type?._data ?? []) {
    types[type.name] ??= type.id;
    groups[type.name] ??= type.ticket_group_id;
  }
  return {
    eventId,
    eventName: detail.event_template._data[0].name,
    sessionId: session.id,
    startIso: session.start_datetime,
    types,
    groups,
  };
}

/** 'YYYY-MM-DD' of today plus `days` in a timezone. */
export function venueDatePlus(timezone: string, days: number, now = new Date()): string {
  return plusDays(dateIn(now, timezone), days);
}

/** Puts tickets in a new cart through the real API from the page's context (it shares the browser's cookies,
 *  so the cart's owner cookie lands in the browser). Returns the cart id. */
export async function reserveThroughApi(
  page: Page,
  seller: string,
  sessionId: string,
  typeIds: string[],
  additionalInfo?: Record<string, unknown>,
): Promise<string> {
  const response = await page.request.post(`/api/cart/modify?_seller=${seller}`, {
    headers: { 'X-Ticketing-App': 'ecomm' },
    data: {
      add: typeIds.map((ticket_type_id) => ({ event_session_id: sessionId, ticket_type_id })),
      ...(additionalInfo ? { additional_info: additionalInfo } : {}),
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).cart._data[0].id;
}

/** Other visitors (each a client of its own: one pending cart per visitor) take `places` of a session, 4 per order. */
export async function otherBuyersTake(
  playwright: { request: { newContext(o: { baseURL?: string }): Promise<APIRequestContext> } },
  baseURL: string | undefined,
  sessionId: string,
  typeId: string,
  places: number,
) {
  let left = places;
  while (left > 0) {
    const buyer = await playwright.request.newContext({ baseURL });
    const n = Math.min(4, left);
    const res = await buyer.post('/api/cart/modify?_seller=demo', {
      headers: { 'X-Ticketing-App': 'ecomm' },
      data: { add: Array.from({ length: n }, () => ({ ticket_type_id: typeId, event_session_id: sessionId })) },
    });
    expect(res.status(), await res.text()).toBe(200);
    left -= n;
    await buyer.dispose();
  }
}

/** Fills the purchaser form, the test-mode card and the terms on /checkout. */
/** Label parts the event detail uses (issue 3 contract): date buttons 'ddd, MMM D', session buttons 'h:mm A'. */
export function sessionLabels(session: TomorrowSession, timezone = 'America/New_York') {
  const start = new Date(session.startIso);
  const day = new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'short', month: 'short', day: 'numeric' }).formatToParts(
    start,
  );
  const part = (type: string) => day.find((p) => p.type === type)?.value ?? '';
  const time = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hour: 'numeric', minute: '2-digit', hour12: true }).format(start);
  return { date: `${part('weekday')}, ${part('month')} ${part('day')}`, time };
}

/** On an event detail already open: dated admission when offered, then the session's date and time. */
export async function pickSessionOnPage(page: Page, session: TomorrowSession) {
  const { date, time } = sessionLabels(session);
  // The admission event offers dated and flexible admission first (spec section 2, date-first order).
  const dated = page.getByRole('radio', { name: /^Visit on a specific date/ });
  await expect(dated.or(page.getByRole('button', { name: new RegExp(`^${date}\\b`) })).first()).toBeVisible();
  if (await dated.count()) await dated.check();
  await page
    .getByRole('button', { name: new RegExp(`^${date}\\b`) })
    .first()
    .click();
  await page
    .getByRole('radio', { name: new RegExp(`^${time}`) })
    .or(page.getByRole('button', { name: new RegExp(`^${time}`) }))
    .first()
    .click();
}

/** On the event detail at `path` (default `/events/{eventId}`): dated admission when offered, the session's date and time. */
export async function chooseSessionThroughUi(page: Page, session: TomorrowSession, path = `/events/${session.eventId}`) {
  await page.goto(path);
  await pickSessionOnPage(page, session);
}

/** With a session chosen: the given Adult and Child counts, the ZIP the demo's survey asks, 'Add to cart'. */
export async function addCountsThroughUi(page: Page, counts: { adults: number; children: number }) {
  for (let i = 0; i < counts.adults; i++) await page.getByRole('button', { name: 'Add one Adult', exact: true }).click();
  for (let i = 0; i < counts.children; i++) await page.getByRole('button', { name: 'Add one Child', exact: true }).click();
  // The demo's timed admission asks for a home ZIP code (its group survey requires it).
  await page.getByRole('textbox', { name: /ZIP or postal code/ }).fill('10001');
  await page.getByRole('button', { name: 'Add to cart' }).click();
}

/** After 'Add to cart' on an admission (the demo's anchor): the upsell chain's listing of add-ons (issue 16), whose skip
 *  link goes on to checkout. */
export async function skipUpsells(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'What other experiences would you like to add?' })).toBeVisible();
  await page.getByRole('link', { name: 'No thanks, continue to checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
}

/** Through the event detail UI: the session's date and time, the given Adult and Child counts, 'Add to cart', past the
 *  upsell chain -> /checkout. */
export async function reserveThroughUi(
  page: Page,
  session: TomorrowSession,
  counts: { adults: number; children: number },
  path = `/events/${session.eventId}`,
) {
  await chooseSessionThroughUi(page, session, path);
  await addCountsThroughUi(page, counts);
  await skipUpsells(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment information' })).toBeVisible();
}

/** The checkout's purchaser fields and, when shown, the terms. */
export async function fillPurchaser(page: Page, person = { first: 'Ada', last: 'Lovelace', email: 'ada@example.com' }) {
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  await field('First Name').fill(person.first);
  await field('Last Name').fill(person.last);
  await field('Email Address').fill(person.email);
  await field('Confirm Email Address').fill(person.email);
  await acceptTerms(page);
}

export async function fillCheckout(page: Page, card: string, person = { first: 'Ada', last: 'Lovelace', email: 'ada@example.com' }) {
  await fillPurchaser(page, person);
  await fillCard(page, card);
}

/** The test gateway's card fields, and the terms when the seller has any. */
export async function fillCard(page: Page, card: string) {
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  await field('Card number').fill(card);
  await field('Expiry (MM/YY)').fill('12/34');
  await field('CVC').fill('123');
  await acceptTerms(page);
}

async function acceptTerms(page: Page) {
  const terms = page.getByLabel('I accept the terms and conditions');
  if (await terms.count()) await terms.check();
}

/** axe-core at desktop (1280x800) and at 390 px wide, nothing sticking out sideways, and a screenshot of each. */
export async function checkBothSizes(page: Page, name: string, shots = '/tmp/shots') {
  mkdirSync(shots, { recursive: true });
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['mobile', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectNoSeriousA11yViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: `${shots}/account-${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The demo's free gallery talk (self-editable, category tour). */
export const TALK = 'Free Gallery Talk: Objects in Focus';

/** The demo's free gallery talk and a session of it two days ahead (beyond the demo's 24-hour self-edit horizon); `nth`
 *  picks a later one, so tests that count a session's places do not share it with others. */
export async function freeTalkSession(request: APIRequestContext, nth = 0) {
  const events = await (await request.get('/api/events/available?_seller=demo&hidden_type._in=public_browsable')).json();
  const event = events.event_template._data.find((e: { name: string }) => e.name === TALK);
  expect(event, 'the demo sells a free gallery talk').toBeTruthy();
  const sessions = await (await request.get(`/api/events/${event.id}/sessions?_seller=demo&_sort=start_datetime&_limit=10`)).json();
  const later = sessions.event_session._data.filter(
    (s: { start_datetime: string }) => new Date(s.start_datetime).getTime() > Date.now() + 48 * 3_600_000,
  )[nth];
  return { eventId: event.id as string, sessionId: later.id as string };
}
