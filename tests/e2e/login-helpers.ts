import { mkdirSync } from 'node:fs';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_MEMBER } from './login-sellers';

const unescapeHtml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);

export interface OtpMail {
  code: string;
  link: string;
  token: string;
  at: Date;
}

/**
 * The newest one-time passcode mail for a seller sent after `since`, read from the real outbox page
 * (GET /_outbox), polling until it is there.
 */
export async function readOtpMail(request: APIRequestContext, sellerName: string, since: Date): Promise<OtpMail> {
  let found: OtpMail | null = null;
  await expect
    .poll(
      async () => {
        const html = await (await request.get('/_outbox')).text();
        for (const article of html.split('<article>').slice(1)) {
          const subject = unescapeHtml(/<h2>([^<]*)<\/h2>/.exec(article)?.[1] ?? '');
          const at = new Date(/datetime="([^"]+)"/.exec(article)?.[1] ?? 0);
          // Same clock as the server (ms precision, taken before the request): an older mail is never taken for a new one.
          if (!subject.startsWith(`${sellerName}: your`) || at.getTime() < since.getTime()) continue;
          const text = unescapeHtml(/<pre>([\s\S]*?)<\/pre>/.exec(article)?.[1] ?? '');
          const code = /passcode is ([0-9A-Za-z]{6})\./.exec(text)?.[1];
          const link = /log in with this link: (\S+)/.exec(text)?.[1];
          if (code && link) {
            found = { code, link, token: new URL(link).searchParams.get('token') ?? '', at };
            return true;
          }
        }
        return false;
      },
      { message: `an OTP mail for ${sellerName}`, timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

/** The path and query of a mailed link (the mail names the public URL; the test server may be another host). */
export const localPath = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/** A code that is certainly wrong: every digit shifted. */
export const wrongCode = (code: string) =>
  code
    .split('')
    .map((c) => (/\d/.test(c) ? String((Number(c) + 1) % 10) : 'Z'))
    .join('');

/** Logs in through the real API from the page (the session cookie lands in the browser). */
export async function loginThroughApi(page: Page, seller: string, email: string, password: string) {
  const response = await page.request.post(`/api/login?_seller=${seller}`, {
    headers: { 'X-Ticketing-App': 'ecomm' },
    data: { username: email, password },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** The header's member menu once logged in: the greeting names the demo member. */
export async function expectGreeting(page: Page) {
  await expect(page.getByRole('banner').getByRole('button', { name: `Hi, ${DEMO_MEMBER.firstName}` })).toBeVisible();
}

export async function expectLoggedOutHeader(page: Page) {
  await expect(page.getByRole('banner').getByRole('button', { name: 'Log in' })).toBeVisible();
}

/** Opens the header 'Log in' dialog. */
export async function openLoginDialog(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Log in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  await expect(dialog).toBeVisible();
  return dialog;
}

export async function shot(page: Page, name: string, fullPage = true) {
  mkdirSync('/tmp/shots', { recursive: true });
  await page.screenshot({ path: `/tmp/shots/login-${name}.png`, fullPage });
}
