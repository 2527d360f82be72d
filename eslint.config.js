// ESLint (flat config): the recommended rules of JavaScript, TypeScript (typescript-eslint) and React hooks, over the
// whole tree. Formatting is Prettier's (`npm run format`); the layers and import circles are dependency-cruiser's
// (.dependency-cruiser.cjs). `npm run lint` runs all three and is part of `npm test`.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-server/',
      'dist-ssr/',
      'dist-stories/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'bench/results.json',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // `_name` marks a value left unused on purpose (a destructured part that is dropped).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Seller JSON and database rows are `any` at a few boundaries that are checked by schema where they enter.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
