import type { Kysely } from 'kysely';

/**
 * Single sign-on logout (issue 18): a session begun at the identity provider keeps the provider's ID token, so that
 * logging out here can end the provider's session too (OpenID Connect RP-initiated logout names it as id_token_hint).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_session').addColumn('sso_id_token', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_session').dropColumn('sso_id_token').execute();
}
