import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/api/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every JSON answer of the API tests is checked against its route's declared schema (server/http/contract-check.ts).
    env: { CONTRACT_CHECK: '1' },
  },
});
