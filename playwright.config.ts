import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { freePort } from './tests/helpers/free-port';
import { AWKWARD_INSTANTS } from './tests/helpers/instants';
import { SERVER_ENTRY, SERVER_OUT, serverBundleCurrent } from './scripts/server-bundle.mjs';
import type { ClockOptions } from './tests/e2e/clock-fixture';

// This file is evaluated by the runner and again in every worker; the env carries the runner's choices to
// the workers so they all talk to the one server.
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'storefront-e2e-'));
// The feature-flag seller's folder (tests/e2e/setup-sellers.ts): the main server watches it, the tests rewrite it.
process.env.E2E_FLAGS_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'storefront-e2e-flags-'));
process.env.E2E_LAYOUT_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'storefront-e2e-layout-'));
// Wallet credentials made at the start of the run (tests/e2e/setup-sellers.ts): the main server offers wallet passes.
process.env.E2E_WALLET_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'storefront-e2e-wallet-'));
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
};

// The browser tests run the server as `npm start` does: the bundle in dist-server/, serving the build in dist/.
if (!serverBundleCurrent(process.cwd()))
  throw new Error(`${SERVER_OUT}/ is missing or older than the sources: run \`npm run build\` before the browser tests`);
const SERVER = `node --enable-source-maps ${SERVER_OUT}/${SERVER_ENTRY}`;

/** The environment of every server the projects start. */
const serverEnv = (serverPort: number, dataDir: string) => ({
  PORT: String(serverPort),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  STATIC_DIR: path.resolve(process.env.E2E_STATIC_DIR ?? 'dist'),
  LOG_LEVEL: 'warn',
  // The tests read passcodes and reset links from the outbox page, which is opt-in.
  OUTBOX_PAGE: '1',
  // Links and images in mails name the address the browser uses (the page's CSP allows its own origin only).
  PUBLIC_URL: `http://127.0.0.1:${serverPort}`,
});

// Pinned clocks (issue 21): one server per awkward instant, started with TEST_NOW at that instant from the same
// real moment (TEST_NOW_SINCE) the browser's clock is pinned from, so both read the same "now". E2E_CLOCK=off
// leaves them out (a quicker local run of the other tests).
process.env.E2E_CLOCK_SINCE ??= String(Date.now());
const clockInstants = process.env.E2E_CLOCK === 'off' ? [] : AWKWARD_INSTANTS;
const usedPorts = new Set([port]);
const clockServers = [];
for (const instant of clockInstants) {
  const portKey = `E2E_CLOCK_PORT_${instant.key.replace(/-/g, '_')}`;
  while (!process.env[portKey] || usedPorts.has(Number(process.env[portKey]))) process.env[portKey] = String(await freePort());
  usedPorts.add(Number(process.env[portKey]));
  const dirKey = `E2E_CLOCK_DIR_${instant.key.replace(/-/g, '_')}`;
  process.env[dirKey] ??= mkdtempSync(path.join(os.tmpdir(), `storefront-e2e-${instant.key}-`));
  clockServers.push({ instant, port: Number(process.env[portKey]), dataDir: process.env[dirKey]! });
}

/** Every server the browser tests use: the main one, then one per pinned clock. */
const servers = [
  {
    name: 'main',
    // Sellers first (demo, and 'e2e' with a short cart hold), then the server.
    command: `npx tsx tests/e2e/setup-sellers.ts && ${SERVER}`,
    env: {
      ...serverEnv(port, process.env.E2E_DATA_DIR),
      E2E_FLAGS_DIR: process.env.E2E_FLAGS_DIR,
      E2E_LAYOUT_DIR: process.env.E2E_LAYOUT_DIR,
      E2E_WALLET_DIR: process.env.E2E_WALLET_DIR,
      WALLET_CONFIG: path.join(process.env.E2E_WALLET_DIR, 'wallet.json'),
      SELLER_WATCH_DIRS: `${process.env.E2E_FLAGS_DIR},${process.env.E2E_LAYOUT_DIR}`,
    },
  },
  ...clockServers.map(({ instant, port: clockPort, dataDir }) => ({
    name: `clock ${instant.key}`,
    // The server loads the demo itself on first start, at its pinned "now"; the Auckland copy is made first.
    command: instant.seller === 'demo' ? SERVER : `npx tsx tests/e2e/setup-sellers.ts && ${SERVER}`,
    env: {
      ...serverEnv(clockPort, dataDir),
      E2E_SELLERS: 'clock-auckland',
      DEFAULT_SELLER: instant.seller,
      TEST_NOW: instant.iso,
      TEST_NOW_SINCE: process.env.E2E_CLOCK_SINCE!,
      TZ: instant.serverTz,
    },
  })),
];

/** End-to-end tests: the real server (the bundle `npm start` runs) on a free port with a fresh PGlite data
 *  directory holding the demo seller and its test copies (tests/e2e/setup-sellers.ts), serving the production
 *  build in dist/ (run `npm run build` first). No mocked API. The 'clock' projects run tests/e2e/clock.spec.ts
 *  once per awkward instant against a server and a browser pinned to it. */
export default defineConfig<ClockOptions>({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  // Two at least: Playwright's default (half the cores) is one worker on the 2-core machines CI and we run on, which
  // left a core idle and made a clean-clone run ~6 minutes longer than CI's.
  workers: Math.max(2, Math.floor(os.availableParallelism() / 2)),
  reporter: [['list']],
  use: { trace: 'retain-on-failure', launchOptions },
  projects: [
    { name: 'chromium', testIgnore: /clock\.spec\.ts/, use: { baseURL, browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
    ...clockServers.map(({ instant, port: clockPort }) => ({
      name: `clock ${instant.key}`,
      testMatch: /clock\.spec\.ts/,
      use: {
        baseURL: `http://127.0.0.1:${clockPort}`,
        browserName: 'chromium' as const,
        viewport: { width: 1280, height: 800 },
        timezoneId: instant.browserTz,
        pinnedInstant: instant,
      },
    })),
  ],
  // One entry starts every server at once (tests/e2e/start-servers.mjs); the clock servers' entries only wait for theirs.
  webServer: [
    {
      command: 'node tests/e2e/start-servers.mjs',
      url: `${baseURL}/storefront-config.json`,
      timeout: 180_000,
      // Only for debugging against a server you started yourself on E2E_PORT; normal runs start their own.
      reuseExistingServer: process.env.E2E_REUSE_SERVER === '1',
      stdout: 'pipe',
      stderr: 'pipe',
      env: { E2E_SERVERS: JSON.stringify(servers) },
    },
    ...clockServers.map(({ port: clockPort }) => ({
      // Started above; this entry waits until it answers (and, idle, keeps Playwright from starting anything itself).
      command: 'node -e "setInterval(() => {}, 1 << 30)"',
      url: `http://127.0.0.1:${clockPort}/storefront-config.json`,
      timeout: 180_000,
      reuseExistingServer: true,
    })),
  ],
});
