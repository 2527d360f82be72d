import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pgModule from 'pg';

/**
 * On PostgreSQL, reads with values run as named prepared statements: each connection parses a text once and keeps it
 * (and, once PostgreSQL judges its generic plan good enough, the plan), so later runs send only the values.
 *
 * - Statements whose text starts with PREPARED always are (the on-sale reservation, server/services/cart/fast-reserve.ts:
 *   measured on its PostgreSQL log, parse 0.36 ms and bind (planning) 0.44 ms against 0.60 ms of execution).
 * - Other `select` and `with` statements with values are, up to AUTO_PREPARED_PER_CONNECTION distinct texts per
 *   connection; later texts run unnamed. The uncached calendar sends six small reads before its aggregate (the seller,
 *   the event, its groups, types, rules and venue): prepared, it answered 75-92 requests/s under 50 clients against
 *   68-82 unnamed (three runs each, alternating), PostgreSQL's CPU per request 11.3-13.5 ms against 13.0-14.8.
 * - Writes and statements without values stay unnamed (migrations, seller loads: many texts, each run a few times).
 *
 * A table that changes shape under a prepared `select *` (a newer process migrating during a rolling deploy) makes
 * PostgreSQL refuse the kept statement ('cached plan must not change result type'). Outside a transaction the statement
 * is sent again unnamed; inside one the error stands (the transaction is already aborted). Either way the connection is
 * closed when released, with its stale statements. PGlite ignores all this (an embedded database parses cheaply and
 * has one session).
 */
export const PREPARED = '/* prepared */';
export const AUTO_PREPARED_PER_CONNECTION = 200;

const AUTO = /^\s*(select|with)\b/i;
const BEGIN = /^\s*(begin|start transaction)\b/i;
const END = /^\s*(commit|rollback)\s*$/i;

const names = new Map<string, string>();
/** One name per distinct text. */
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `p_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    if (names.size > 2000) names.clear();
    names.set(text, name);
  }
  return name;
}

/** The statements each connection has prepared (the pool hands out the same client object for one connection). */
const preparedOn = new WeakMap<pgModule.PoolClient, Set<string>>();

function isStalePlan(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
}

/** node-postgres' pool as kysely's PostgresDialect uses it, with statements prepared as above. */
export function preparingPool(pool: pgModule.Pool): PostgresPool {
  return {
    connect: async (): Promise<PostgresPoolClient> => {
      const client = await pool.connect();
      let known = preparedOn.get(client);
      if (!known) preparedOn.set(client, (known = new Set()));
      let inTransaction = false;
      let stale = false;
      // Kysely sends text and values (a cursor only with the dialect's cursor option, which is not set).
      const query = async (text: string, values: unknown[]) => {
        if (BEGIN.test(text)) inTransaction = true;
        else if (END.test(text)) inTransaction = false;
        const marked = text.startsWith(PREPARED);
        if (!marked && !(values.length > 0 && AUTO.test(text))) return client.query(text, values);
        const name = nameOf(text);
        if (!known.has(name)) {
          if (!marked && known.size >= AUTO_PREPARED_PER_CONNECTION) return client.query(text, values);
          known.add(name);
        }
        try {
          return await client.query({ name, text, values });
        } catch (err) {
          if (!isStalePlan(err)) throw err;
          stale = true;
          if (inTransaction) throw err;
          return client.query(text, values);
        }
      };
      return {
        query: query as unknown as PostgresPoolClient['query'],
        // A truthy argument makes the pool close the connection instead of keeping it.
        release: () => client.release(stale || undefined),
      };
    },
    end: () => pool.end(),
  };
}
