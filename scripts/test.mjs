#!/usr/bin/env node
// `npm test`: type-check, lint (ESLint, the layers by dependency-cruiser, Prettier), unit + API tests (vitest),
// production build, the stories build (Ladle, dist-stories/), browser tests (Playwright), then one
// closing line "N passed, N failed" over both runners so CI and people read one figure.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { playwrightFailed, vitestFailed } from './failed-tests.mjs';

const out = mkdtempSync(path.join(tmpdir(), 'storefront-test-'));
const vitestJson = path.join(out, 'vitest.json');
const vitestSetupErrors = path.join(out, 'vitest-setup-errors.json');
const playwrightJson = path.join(out, 'playwright.json');

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status ?? 1;
}

function counts(file, read) {
  try {
    return read(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return null;
  }
}

/** The labels of the steps that exited non-zero, printed at the end. */
const failedSteps = [];
if (run('type-check', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']) !== 0) failedSteps.push('type-check');
if (run('lint', 'npm', ['run', '--silent', 'lint']) !== 0) failedSteps.push('lint');
const vitestArgs = [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
  '--reporter=./scripts/vitest-setup-errors.mjs',
];
if (run('unit and API tests', 'npx', ['vitest', ...vitestArgs], { VITEST_SETUP_ERRORS: vitestSetupErrors }) !== 0)
  failedSteps.push('unit and API tests');
const built = run('build', 'node', ['scripts/start.mjs', '--build-only']) === 0;
if (!built) failedSteps.push('build');
// The component viewer (/_stories, ~15-30 s here): the browser tests check it lists the stories and that dist/ holds none.
if (run('stories build', 'npm', ['run', '--silent', 'stories:build']) !== 0) failedSteps.push('stories build');
if (
  built &&
  run('browser tests', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson }) !== 0
)
  failedSteps.push('browser tests');

const v = counts(vitestJson, (j) => ({
  passed: j.numPassedTests,
  failed: j.numFailedTests,
  skipped: j.numPendingTests + (j.numTodoTests ?? 0),
}));
// Errors outside any test (a file's import, a describe's beforeAll/afterAll): its tests only count as skipped.
const setupErrors = counts(vitestSetupErrors, (lines) => lines) ?? [];
const p = counts(playwrightJson, (j) => ({ passed: j.stats.expected, failed: j.stats.unexpected, skipped: j.stats.skipped }));
// The failed tests by name: CI shows only the end of a long run's log, and a count alone does not say which test failed.
const vitestFailures = counts(vitestJson, vitestFailed) ?? [];
const playwrightFailures = counts(playwrightJson, playwrightFailed) ?? [];
rmSync(out, { recursive: true, force: true });

const passed = (v?.passed ?? 0) + (p?.passed ?? 0);
// A step that failed without test results (type errors, a broken build) still counts as a failure.
for (const line of setupErrors) console.log(`vitest, outside a test: ${line}`);
for (const line of vitestFailures) console.log(`vitest, failed: ${line}`);
for (const line of playwrightFailures) console.log(`playwright, failed: ${line}`);
const testFailures = (v?.failed ?? 0) + setupErrors.length + (p?.failed ?? 0);
const failed = testFailures + (testFailures === 0 ? failedSteps.length : 0);
const skipped = (v?.skipped ?? 0) + (p?.skipped ?? 0);
console.log(
  `\nvitest: ${v ? `${v.passed} passed, ${v.failed} failed` : 'no results'}; playwright: ${p ? `${p.passed} passed, ${p.failed} failed` : 'no results'}`,
);
if (failedSteps.length) console.log(`steps that failed: ${failedSteps.join(', ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedSteps.length > 0 ? 1 : 0);
