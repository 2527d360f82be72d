import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Deps } from '../deps';
import type { Database, OrderRefund } from '../db/types';
import { DomainError } from './errors';
import { gatewayFor } from './payments';

type Trx = Transaction<Database>;

/**
 * Refunds of cancelled tickets (issue 17). The transaction that cancels the tickets writes what is owed back, one
 * `order_refund` row per payment it comes from (never more than a payment has left unrefunded:
 * its row is locked while this is worked out; card payments before gift cards); the money moves afterwards, outside any transaction, through the
 * gateway that took it (a card back to the card, a gift card back to its balance), under the row's own idempotency
 * key. The tickets change state once (the cancel's conditional update), so their refund is written once; a refund
 * whose gateway call was cut short stays pending and the reconciler pays it out later under the same key.
 */
/**
 * What the order's payments have left to give back: paid (succeeded, not free) less what refunds already took or owe.
 * The cancel screen's preview is capped by it, as owePaidBack's rows are, so the amount promised is the amount paid out.
 */
export async function refundableOf(db: Deps['db'], orderId: string): Promise<number> {
  const paid = await db
    .selectFrom('payment')
    .select(sql<number>`coalesce(sum(amount), 0)::int`.as('sum'))
    .where('ticket_order_id', '=', orderId)
    .where('status', '=', 'succeeded')
    .where('gateway_id', '<>', 'free')
    .executeTakeFirstOrThrow();
  const owed = await db
    .selectFrom('order_refund')
    .select(sql<number>`coalesce(sum(amount), 0)::int`.as('sum'))
    .where('ticket_order_id', '=', orderId)
    .where('status', 'in', ['pending', 'succeeded'])
    .executeTakeFirstOrThrow();
  return Math.max(0, Number(paid.sum) - Number(owed.sum));
}

export async function owePaidBack(
  trx: Trx,
  args: { sellerId: string; orderId: string; amount: number; ticketIds: string[]; now: Date },
): Promise<string[]> {
  if (args.amount <= 0) return [];
  const payments = await trx
    .selectFrom('payment')
    .select(['id', 'gateway_id', 'amount'])
    .where('ticket_order_id', '=', args.orderId)
    .where('status', '=', 'succeeded')
    .where('gateway_id', '<>', 'free')
    // Cards first, then gift cards (their balance), the newest payment first within each.
    .orderBy(sql`gateway_id = 'ledger'`)
    .orderBy('occurred_on', 'desc')
    .orderBy('id', 'desc')
    .forUpdate()
    .execute();
  if (payments.length === 0) return [];
  const taken = await trx
    .selectFrom('order_refund')
    .select(['payment_id', sql<number>`sum(amount)::int`.as('sum')])
    .where(
      'payment_id',
      'in',
      payments.map((p) => p.id),
    )
    .where('status', 'in', ['pending', 'succeeded'])
    .groupBy('payment_id')
    .execute();
  const refunded = new Map(taken.map((r) => [r.payment_id, Number(r.sum)]));
  const ids: string[] = [];
  let left = args.amount;
  for (const p of payments) {
    const part = Math.min(left, p.amount - (refunded.get(p.id) ?? 0));
    if (part <= 0) continue;
    const id = randomUUID();
    await trx
      .insertInto('order_refund')
      .values({
        id,
        seller_id: args.sellerId,
        ticket_order_id: args.orderId,
        payment_id: p.id,
        gateway_id: p.gateway_id,
        amount: part,
        idempotency_key: `order:${args.orderId}:refund:${id}`,
        ticket_ids: JSON.stringify(args.ticketIds),
        created_at: args.now,
        updated_at: args.now,
      })
      .execute();
    ids.push(id);
    left -= part;
    if (left === 0) break;
  }
  return ids;
}

/**
 * Pays out pending refunds through their gateways (outside any transaction). A provider's refusal (a DomainError: the
 * charge is gone, refunded by hand beyond it) marks the refund failed for the box office; no answer leaves it pending.
 */
export async function payOutRefunds(deps: Deps, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await deps.db
    .selectFrom('order_refund')
    .innerJoin('payment', 'payment.id', 'order_refund.payment_id')
    .selectAll('order_refund')
    .select('payment.gateway_ref')
    .where('order_refund.id', 'in', ids)
    .where('order_refund.status', '=', 'pending')
    .execute();
  for (const row of rows) await payOut(deps, row);
}

async function payOut(deps: Deps, row: OrderRefund & { gateway_ref: string | null }): Promise<void> {
  const settle = (status: 'succeeded' | 'failed' | 'pending', error: string | null) =>
    deps.db
      .updateTable('order_refund')
      .set({ status, last_error: error, updated_at: deps.now() })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .execute();
  try {
    if (!row.gateway_ref) throw new DomainError('payment_failed', 'The payment has no reference to refund.', 'refund');
    await gatewayFor(deps.config, row.gateway_id).refund({
      db: deps.db,
      ref: row.gateway_ref,
      amount: row.amount,
      idempotencyKey: row.idempotency_key,
    });
    await settle('succeeded', null);
  } catch (err) {
    if (err instanceof DomainError) await settle('failed', err.code);
    else await settle('pending', (err as Error).message?.slice(0, 200) ?? 'unknown');
  }
}

/** The reconciler's round for refunds: those left pending longer than `olderThan` are paid out again (same keys). */
export async function payOutStaleRefunds(deps: Deps, cutoff: Date, limit = 100): Promise<number> {
  const stale = await deps.db
    .selectFrom('order_refund')
    .select('id')
    .where('status', '=', 'pending')
    .where('updated_at', '<', cutoff)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  await payOutRefunds(
    deps,
    stale.map((r) => r.id),
  );
  return stale.length;
}
