/** The short-hold test seller loaded by tests/e2e/setup-sellers.ts (shared with the specs without running it). */
export const E2E_SELLER = 'e2e';
/** Long enough to pass the 30 s reload threshold when the checkout opens, short enough to expire in a test. */
export const E2E_HOLD_SECONDS = 50;

/** The feature-flag and analytics seller (tests/e2e/flags-analytics.spec.ts): its folder stays in E2E_FLAGS_DIR, which
 *  the server watches (SELLER_WATCH_DIRS), so a test that rewrites its config.json switches flags on open pages. */
export const FLAGS_SELLER = 'e2e-flags';

/** The seller of tests/e2e/layout.spec.ts (issue 18): a demo copy in E2E_LAYOUT_DIR, watched by the server, so rewriting its
 *  config.json, strings.json or content blocks is how a seller reshapes a running storefront. */
export const LAYOUT_SELLER = 'e2e-layout';

/** A demo copy whose adult admission is held up by a checkout rule until a press code is applied (issue 13's
 *  blocked-cart code form, tests/e2e/gift-cards.spec.ts). */
export const BLOCKED_SELLER = 'e2e-blocked';
export const BLOCKED_CODE = 'PRESS2026';

/** A demo copy whose self_edit_rules let visitors cancel paid tickets, refunded (issue 17, tests/e2e/after-purchase.spec.ts). */
export const REFUNDS_SELLER = 'e2e-refunds';
