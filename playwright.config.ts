import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { freePort } from './tests/helpers/free-port';

// This file is evaluated by the runner and again in every worker; the env carries the runner's choices to
// the workers so they all talk to the one server.
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'storefront-e2e-'));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

/** End-to-end tests: the real server (`npx tsx server/main.ts`) on a free port with a fresh PGlite data
 *  directory holding the demo seller and the short-hold 'e2e' seller (tests/e2e/setup-sellers.ts), serving
 *  the production build in dist/ (run `npx vite build` first). No mocked API. */
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    },
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    // Sellers first (demo, and 'e2e' with a short cart hold), then the server.
    command: 'npx tsx tests/e2e/setup-sellers.ts && npx tsx server/main.ts',
    url: `${baseURL}/storefront-config.json`,
    timeout: 120_000,
    // Only for debugging against a server you started yourself on E2E_PORT; normal runs start their own.
    reuseExistingServer: process.env.E2E_REUSE_SERVER === '1',
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      STATIC_DIR: path.resolve(process.env.E2E_STATIC_DIR ?? 'dist'),
      LOG_LEVEL: 'warn',
      // The tests read passcodes and reset links from the outbox page, which is opt-in.
      OUTBOX_PAGE: '1',
    },
  },
});
