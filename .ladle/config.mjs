// Ladle (the component viewer at /_stories, README "Stories"): every *.stories.tsx under src/, built to
// dist-stories/ for the API server to serve at /_stories/ outside production (server/app.ts).
/** @type {import('@ladle/react').UserConfig} */
export default {
  stories: 'src/**/*.stories.tsx',
  // Ladle runs its own Vite (6); the storefront's vite.config.ts is for Vite 8 and its React plugin.
  viteConfig: '.ladle/vite.config.ts',
  base: '/_stories/',
  outDir: 'dist-stories',
  port: 61000,
  addons: {
    // The storefront's two design widths (mobile is a 390 px phone); a story can pin one with `meta: { width }`.
    width: { enabled: true, options: { mobile: 390, tablet: 768, desktop: 1280 }, defaultState: 0 },
    a11y: { enabled: true },
    // Stories never intercept requests: stores are fed through their API client (src/stories/harness).
    msw: { enabled: false },
  },
};
