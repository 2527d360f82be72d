import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/api/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time: each spends most of its time in its own single-threaded PGlite, so on CI's two cores
    // the second fork nearly halves the run (vitest's default here is one fork: cores - 1).
    maxWorkers: 2,
    // One migrated PGlite image for the run: each API test's database starts from it (tests/helpers/pglite-image.ts).
    globalSetup: ['tests/helpers/pglite-image.ts'],
    // Every JSON answer of the API tests is checked against its route's declared schema (server/http/contract-check.ts).
    env: { CONTRACT_CHECK: '1' },
  },
});
