import type { Deps } from '../deps';
import type { SavedPaymentMethodRow } from '../../src/contract/saved-payment';
import { DomainError } from './errors';
import { gatewayFor } from './payments';
import type { ReusableMethod } from './payments/types';

/**
 * Saved payment methods (issue 22): the cards a shopper kept at checkout (or for a membership's auto-renew), as
 * `payment_method` rows of their identity. The row holds the provider's token, which never leaves the server: the
 * storefront sees brand, last 4 and expiry, and pays with a saved card by naming the row's id, which is looked up for
 * the logged-in identity only (another user's id is 404, as a missing one is).
 */

const notFound = (id: string) =>
  new DomainError('payment_method_not_found', 'We could not find that saved payment method.', 'saved_payment_method', { id });

const rowOf = (m: {
  id: string;
  gateway_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  created_at: Date | string;
}) =>
  ({
    id: m.id,
    gateway_id: m.gateway_id,
    brand: m.brand,
    last4: m.last4,
    exp_month: m.exp_month,
    exp_year: m.exp_year,
    created_at: new Date(m.created_at).toISOString(),
  }) satisfies SavedPaymentMethodRow;

/** GET my/identity/saved_payment_method: newest first. */
export async function listSavedMethods(deps: Deps, sellerId: string, identityId: string) {
  const rows = await deps.db
    .selectFrom('payment_method')
    .select(['id', 'gateway_id', 'brand', 'last4', 'exp_month', 'exp_year', 'created_at'])
    .where('seller_id', '=', sellerId)
    .where('identity_id', '=', identityId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return { saved_payment_method: { _data: rows.map(rowOf), _count: rows.length } };
}

/**
 * DELETE my/identity/saved_payment_method/{id}: the row goes (a membership naming it renews with the member's other
 * saved card, migration 016), then the provider forgets the card. The delete decides ownership and happens once.
 */
export async function removeSavedMethod(deps: Deps, sellerId: string, identityId: string, id: string) {
  const removed = await deps.db
    .deleteFrom('payment_method')
    .where('id', '=', id)
    .where('seller_id', '=', sellerId)
    .where('identity_id', '=', identityId)
    .returning(['id', 'gateway_id', 'brand', 'last4', 'exp_month', 'exp_year', 'created_at', 'token'])
    .executeTakeFirst();
  if (!removed) throw notFound(id);
  // The card is already unusable here (no row names it); a provider that cannot be reached only keeps a detached-to-be
  // token nobody can charge through us.
  await Promise.resolve()
    .then(() => gatewayFor(deps.config, removed.gateway_id).forget({ db: deps.db, token: removed.token }))
    .catch(() => undefined);
  return { saved_payment_method: { _data: [rowOf(removed)], _count: 1 } };
}

/** The logged-in shopper's saved card of this gateway, to pay with (its token stays here). */
export async function ownSavedMethod(deps: Deps, sellerId: string, identityId: string | null, id: string, gatewayId: string) {
  if (!identityId) throw new DomainError('not_authenticated', 'Log in to pay with a saved card.', 'saved_payment_method');
  const row = await deps.db
    .selectFrom('payment_method')
    .select(['id', 'token'])
    .where('id', '=', id)
    .where('seller_id', '=', sellerId)
    .where('identity_id', '=', identityId)
    .where('gateway_id', '=', gatewayId)
    .executeTakeFirst();
  if (!row) throw notFound(id);
  return row;
}

/** Keeps a card the provider kept for this identity; answers the row's id. */
export async function keepMethod(
  deps: Deps,
  k: { sellerId: string; identityId: string; gatewayId: string; method: ReusableMethod },
): Promise<string> {
  const saved = await deps.db
    .insertInto('payment_method')
    .values({
      seller_id: k.sellerId,
      identity_id: k.identityId,
      gateway_id: k.gatewayId,
      token: k.method.token,
      brand: k.method.brand,
      last4: k.method.last4,
      exp_month: k.method.exp_month,
      exp_year: k.method.exp_year,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return saved.id;
}
