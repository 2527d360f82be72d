import type { Seller } from '../../db/types';
import { DomainError } from '../errors';
import { anchorProblem, upsellSettings, type CartVisit } from '../../../src/domain/upsell';

/**
 * The anchor rules of upsell chains on the server (issue 16, src/domain/upsell.ts): after any change, every add-on the
 * cart holds that is sold only after an anchor has an anchor it follows, fitting the seller's visit_time, and every
 * add-on whose tickets must match its anchor's holds as many tickets as such an anchor. Checked in the reserve
 * transaction over what the cart holds after the change (visits.ts), whatever the browser sent: an add-on without its
 * admission, a count that does not match, or an admission removed from under its add-ons is refused and nothing stays.
 * The seller row's config names the admission event by its database id (the loader replaced the catalogue key).
 */
export function checkAnchors(seller: Seller, held: readonly CartVisit[]): void {
  const problem = anchorProblem(held, upsellSettings(seller.config));
  if (!problem) return;
  const { code, ...extra } = problem;
  const description =
    code === 'anchor_required' ? 'This event needs an admission in the cart.' : 'The tickets must match the admission in number.';
  throw new DomainError(code, description, 'reserve', extra);
}
