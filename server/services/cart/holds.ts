import { sql, type Kysely, type Transaction } from 'kysely';
import type { Deps } from '../../deps';
import type { Database, Seller } from '../../db/types';
import { DomainError } from '../errors';
import { hit } from '../auth/rate-limit';
import type { Caller } from './access';

type Trx = Transaction<Database>;

/**
 * Against inventory hoarding (issue 20, finding 6). A visitor has one pending cart, which a cart/modify without an id
 * reuses; the tickets one visitor and one network address hold in a session are capped by the seller's
 * cart.limits (schemas/seller-config.schema.json); an address may start only so many carts an hour. The hold itself
 * runs from the cart's creation (modify.ts), so emptying and refilling never prolongs it.
 */
export interface HoldLimits {
  heldPerVisitor: number;
  heldPerAddress: number;
  newCartsPerAddress: number;
}

export function holdLimits(seller: Seller): HoldLimits {
  const l = seller.config?.cart?.limits ?? {};
  const n = (v: unknown, fallback: number) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : fallback);
  return {
    heldPerVisitor: n(l.held_per_visitor, 50),
    heldPerAddress: n(l.held_per_address, 100),
    newCartsPerAddress: n(l.new_carts_per_address, 300),
  };
}

/** The carts that are this visitor's: a guest's by its cart token, a logged-in user's by identity. */
const visitorKey = (caller: Caller) =>
  caller.identityId ? `identity:${caller.identityId}` : caller.tokenHash ? `token:${caller.tokenHash}` : null;

let unsafeSkipHoldLocks = false;
/** TEST ONLY: without the locks, concurrent requests each see room under a cap (the control of the holds test). */
export function setUnsafeSkipHoldLocksForTests(on: boolean): void {
  unsafeSkipHoldLocks = on;
}
/** Whether the hold caps are serialised (always, but in the control of the holds test). */
export const holdLocksOn = () => !unsafeSkipHoldLocks;

/** The advisory lock key of an address's holds (lockHolder; the one-statement reserve takes it too). */
export const addressLockKey = (sellerId: string, addressHash: string) => `holds:${sellerId}:address:${addressHash}`;

/**
 * Serialises the hold decisions of one visitor and of one address (transaction-scoped advisory locks, one
 * statement), so concurrent requests cannot each see room under a cap and together pass it, nor start two carts
 * for one visitor. Locks are always taken visitor first, then address, after the cart's own row lock.
 */
export async function lockHolder(trx: Trx, seller: Seller, caller: Caller, limits: HoldLimits): Promise<void> {
  const keys = [visitorKey(caller), limits.heldPerAddress > 0 && caller.addressHash ? `address:${caller.addressHash}` : null].filter(
    (k): k is string => !!k,
  );
  if (keys.length === 0 || unsafeSkipHoldLocks) return;
  const locks = keys.map((k) => sql`pg_advisory_xact_lock(hashtextextended(${`holds:${seller.id}:${k}`}, 0))`);
  await sql`select ${sql.join(locks)}`.execute(trx);
}

/** The visitor's pending cart, if it has one (the newest); with `lock`, locked for the change. */
export async function ownPendingCart(trx: Kysely<Database>, seller: Seller, caller: Caller, lock = true) {
  if (!caller.identityId && !caller.tokenHash) return undefined;
  return (
    trx
      .selectFrom('cart')
      .selectAll()
      .where('seller_id', '=', seller.id)
      .where('state', '=', 'pending')
      // An edit cart (issue 17) is the order's, not the visitor's shopping cart.
      .where('edit_order_id', 'is', null)
      .$if(!!caller.identityId, (q) => q.where('identity_id', '=', caller.identityId!).where('owner_token_hash', 'is', null))
      .$if(!caller.identityId, (q) => q.where('owner_token_hash', '=', caller.tokenHash!))
      .orderBy('created_at', 'desc')
      .limit(1)
      .$if(lock, (q) => q.forUpdate())
      .executeTakeFirst()
  );
}

/** Counts one new cart against the address's hourly allowance (outside any transaction: PGlite has one session). */
export async function countNewCart(deps: Deps, limits: HoldLimits, caller: Caller): Promise<void> {
  if (limits.newCartsPerAddress > 0 && caller.addressHash) await hit(deps, 'cart_create_ip', caller.addressHash, limits.newCartsPerAddress);
}

/**
 * After tickets were added: what this visitor and this address now hold in each touched session (or sessionless
 * group), over all their live carts, must stay within the seller's caps. One statement; the caller holds lockHolder.
 */
export async function checkHolds(
  trx: Trx,
  args: {
    now: Date;
    caller: Caller;
    limits: HoldLimits;
    added: Array<{ event_session_id?: string | null; ticket_group_id: string }>;
  },
): Promise<void> {
  const { caller, limits, now } = args;
  const byVisitor = limits.heldPerVisitor > 0 && !!visitorKey(caller);
  const byAddress = limits.heldPerAddress > 0 && !!caller.addressHash;
  if (args.added.length === 0 || (!byVisitor && !byAddress)) return;
  const sessions = [...new Set(args.added.map((r) => r.event_session_id).filter((s): s is string => !!s))];
  const groups = [...new Set(args.added.filter((r) => !r.event_session_id).map((r) => r.ticket_group_id))];
  const visitorCart = caller.identityId
    ? sql<boolean>`(c.identity_id = ${caller.identityId} and c.owner_token_hash is null)`
    : sql<boolean>`(c.owner_token_hash = ${caller.tokenHash ?? ''})`;
  const addressCart = sql<boolean>`(c.address_hash = ${caller.addressHash ?? ''})`;
  const holders = [byVisitor ? visitorCart : null, byAddress ? addressCart : null].filter((h) => h !== null);
  const touched = [
    sessions.length ? sql<boolean>`t.event_session_id in (${sql.join(sessions)})` : null,
    groups.length ? sql<boolean>`(t.event_session_id is null and t.ticket_group_id in (${sql.join(groups)}))` : null,
  ].filter((w) => w !== null);
  const { rows } = await sql<{ session_id: string | null; group_id: string | null; visitor: number; address: number }>`
    select t.event_session_id as session_id, case when t.event_session_id is null then t.ticket_group_id end as group_id,
      count(*) filter (where ${visitorCart})::int as visitor, count(*) filter (where ${addressCart})::int as address
    from ticket t join cart c on c.id = t.cart_id
    where t.state = 'in_cart' and c.state = 'pending' and c.expires_at > ${now}
      and (${sql.join(holders, sql` or `)}) and (${sql.join(touched, sql` or `)})
    group by 1, 2`.execute(trx);
  for (const row of rows) {
    const over =
      byVisitor && row.visitor > limits.heldPerVisitor ? 'visitor' : byAddress && row.address > limits.heldPerAddress ? 'address' : null;
    if (over) {
      throw new DomainError('hold_limit_exceeded', 'You already hold as many tickets for this time as allowed at once.', 'reserve', {
        scope: over,
        limit: over === 'visitor' ? limits.heldPerVisitor : limits.heldPerAddress,
        ...(row.session_id ? { event_session_id: row.session_id } : { ticket_group_id: row.group_id }),
      });
    }
  }
  // The exact figure, counted under the address's lock, replaces the one-statement reserve's upper bound (fast-reserve.ts).
  const tallies = rows.filter((r) => byAddress && r.address > 0).map((r) => ({ scope: (r.session_id ?? r.group_id)!, held: r.address }));
  if (tallies.length > 0) {
    await trx
      .insertInto('hold_tally')
      .values(tallies.map((t) => ({ address_hash: caller.addressHash!, scope_id: t.scope, held: t.held })))
      .onConflict((oc) => oc.columns(['address_hash', 'scope_id']).doUpdateSet((eb) => ({ held: eb.ref('excluded.held') })))
      .execute();
  }
}
