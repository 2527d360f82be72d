import {
  PostgresIntrospector,
  sql,
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/** The Migrator's own tables (Kysely's defaults, which migrateToLatest keeps). */
const KYSELY_TABLES = ['kysely_migration', 'kysely_migration_lock'];

interface ColumnRow {
  schema: string;
  table: string;
  kind: string;
  column: string;
  dataType: string;
  dataTypeSchema: string;
  notNull: boolean;
  hasDefault: boolean;
  autoIncrementing: boolean;
  comment: string | null;
}

/**
 * The tables of this connection's schema only (`current_schema()`). Kysely's PostgreSQL introspector reads every
 * schema of the database and calls `has_schema_privilege` and `pg_get_serial_sequence` on each by name, so a schema
 * another client drops meanwhile fails the whole read (3F000 'schema does not exist', 42P01, 42703 or XX000 'cache
 * lookup failed', all seen with three clients dropping schemas). The Migrator is what reads it here, to see whether its
 * own two tables exist in the schema it was given: that schema is always the connection's.
 */
export class OwnSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  /** pg_namespace alone, by row: nothing is looked up by name, so Kysely's own read is safe. */
  getSchemas(): Promise<SchemaMetadata[]> {
    return new PostgresIntrospector(this.#db).getSchemas();
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select n.nspname as schema, c.relname as "table", c.relkind as kind, a.attname as "column",
             t.typname as "dataType", tn.nspname as "dataTypeSchema",
             a.attnotnull as "notNull", a.atthasdef as "hasDefault",
             (a.attidentity <> '' or pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname) is not null) as "autoIncrementing",
             col_description(c.oid, a.attnum) as comment
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid
      join pg_catalog.pg_type t on t.oid = a.atttypid
      join pg_catalog.pg_namespace tn on tn.oid = t.typnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p', 'm') and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`.execute(this.#db);
    const tables = new Map<string, { schema: string; isView: boolean; columns: ColumnMetadata[] }>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.includes(r.table)) continue;
      let table = tables.get(r.table);
      if (!table) tables.set(r.table, (table = { schema: r.schema, isView: r.kind === 'v' || r.kind === 'm', columns: [] }));
      table.columns.push({
        name: r.column,
        dataType: r.dataType,
        dataTypeSchema: r.dataTypeSchema,
        isNullable: !r.notNull,
        hasDefaultValue: r.hasDefault,
        isAutoIncrementing: r.autoIncrementing,
        ...(r.comment === null ? {} : { comment: r.comment }),
      });
    }
    return [...tables].map(([name, t]) => ({ name, schema: t.schema, isView: t.isView, columns: t.columns }));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
