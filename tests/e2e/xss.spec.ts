import { expect, test, type Page } from '@playwright/test';
import { firstSessionTomorrow, reserveThroughApi } from './helpers';
import { XSS_SAFE_LINK, XSS_SAFE_TEXT, XSS_SELLER } from './xss-seller';

/**
 * Issue 5: the 'e2e-xss' seller's descriptions, content blocks and terms carry script, event-handler and
 * javascript: payloads (tests/e2e/xss-seller.ts). The server sanitised them when the folder was loaded; here
 * Chromium renders every page that shows them and nothing may run, nor even be tried and refused by the CSP.
 */
const SELLER = XSS_SELLER.slug;
const CONTAINERS = '.content-block, .event-detail__description, .terms__content';

interface Watch {
  dialogs: string[];
  errors: string[];
  refused: string[];
}

/** Records dialogs, page errors, CSP refusals (event and console) from before the first script of each page. */
async function watch(page: Page): Promise<Watch> {
  const seen: Watch = { dialogs: [], errors: [], refused: [] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => seen.errors.push(error.message));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) seen.refused.push(message.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
  return seen;
}

/** After the seller HTML is on screen and its images settled (an onerror would have fired): nothing ran or was tried. */
async function expectNothingRan(page: Page, seen: Watch) {
  await page.waitForFunction(
    (selector) => [...document.querySelectorAll<HTMLImageElement>(`:is(${selector}) img`)].every((img) => img.complete),
    CONTAINERS,
  );
  const state = await page.evaluate((selector) => {
    const w = window as unknown as { __xss?: unknown; __csp: string[] };
    const unsafe: string[] = [];
    for (const el of document.querySelectorAll(`:is(${selector}) *`)) {
      if (/^(script|style|iframe|object|embed|form|input|button|svg|math|details|base|meta|link)$/i.test(el.localName))
        unsafe.push(`<${el.localName}>`);
      for (const attr of el.attributes) {
        if (/^on/i.test(attr.name) || attr.name === 'style') unsafe.push(`<${el.localName} ${attr.name}>`);
        if (
          /^(href|src|action|formaction|data)$/.test(attr.name) &&
          !/^(https?|mailto|tel):$/.test(new URL(attr.value, location.href).protocol)
        ) {
          unsafe.push(`<${el.localName} ${attr.name}="${attr.value}">`);
        }
      }
    }
    return { xss: w.__xss, csp: w.__csp, unsafe, containers: document.querySelectorAll(selector).length };
  }, CONTAINERS);
  expect(state.containers).toBeGreaterThan(0);
  expect({ xss: state.xss, unsafe: state.unsafe, csp: state.csp, ...seen }).toEqual({
    xss: undefined,
    unsafe: [],
    csp: [],
    dialogs: [],
    errors: [],
    refused: [],
  });
}

test.describe('seller HTML with script payloads', () => {
  test('the events listing shows the content block text and runs none of its payloads', async ({ page }) => {
    const seen = await watch(page);
    await page.goto(`/${SELLER}/events`);
    const block = page.locator('.content-block--xss-events');
    await expect(block.getByRole('heading', { name: XSS_SAFE_TEXT.eventsBlock })).toBeVisible();
    await expect(block.getByText(XSS_SAFE_TEXT.eventsBlock, { exact: true }).last()).toBeVisible();
    await expect(page.locator('.event-item__name').first()).toBeVisible();
    await expectNothingRan(page, seen);
  });

  test('the event detail shows the description and content block and runs none of their payloads', async ({ page }) => {
    const seen = await watch(page);
    const session = await firstSessionTomorrow(page.request, SELLER);
    await page.goto(`/${SELLER}/events/${session.eventId}`);
    const description = page.locator('.event-detail__description');
    await expect(description.getByText(XSS_SAFE_TEXT.description)).toBeVisible();
    const link = description.getByRole('link', { name: XSS_SAFE_LINK.text });
    await expect(link).toHaveAttribute('href', XSS_SAFE_LINK.href);
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(page.locator('.content-block--xss-detail').getByText(XSS_SAFE_TEXT.detailBlock, { exact: true }).last()).toBeVisible();
    // The payloads' link texts are left as harmless text: clicking one goes nowhere and runs nothing.
    await description.getByText('a javascript link').click();
    await expect(page).toHaveURL(new RegExp(`/${SELLER}/events/${session.eventId}$`));
    await expectNothingRan(page, seen);
  });

  test('the checkout terms dialog shows the terms and runs none of their payloads', async ({ page }) => {
    const seen = await watch(page);
    const session = await firstSessionTomorrow(page.request, SELLER);
    await page.goto(`/${SELLER}/events`);
    const cartId = await reserveThroughApi(page, SELLER, session.sessionId, [session.types.Adult], {
      [session.groups.Adult]: { zip_code: '10001' },
    });
    await page.goto(`/${SELLER}/checkout/${cartId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment information' })).toBeVisible();
    await page.getByRole('button', { name: 'Read the terms and conditions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Terms and conditions' });
    await expect(dialog.getByText(XSS_SAFE_TEXT.terms)).toBeVisible();
    await expectNothingRan(page, seen);
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await expect(page.getByLabel('I accept the terms and conditions')).toBeChecked();
  });
});
