import type { ServerConfig } from './config';
import type { Db, DbKind } from './db';

/** What every route and job is given. Services take `db` (or a transaction) as their first argument. */
export interface Deps {
  db: Db;
  dbKind: DbKind;
  config: ServerConfig;
  /** The current time; tests may pass their own. */
  now: () => Date;
}
