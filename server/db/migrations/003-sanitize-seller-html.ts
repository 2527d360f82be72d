import type { Kysely } from 'kysely';
import { sanitizeSellerHtml, sanitizeSellerSvg } from '../../catalog/sanitize';

/**
 * Seller HTML is sanitised on the server when a seller folder is read, and the storefront renders it as stored
 * (it no longer ships a sanitiser). Rows loaded before that change are cleaned here once: descriptions, the
 * terms, content blocks and seat-map drawings.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['event_template', 'ticket_group', 'ticket_type']) {
    const rows = await db.selectFrom(table).select(['id', 'description']).where('description', 'is not', null).execute();
    for (const row of rows) {
      const clean = sanitizeSellerHtml(row.description);
      if (clean !== row.description) await db.updateTable(table).set({ description: clean }).where('id', '=', row.id).execute();
    }
  }

  const sellers = await db.selectFrom('seller').select(['id', 'config', 'content_blocks']).execute();
  for (const seller of sellers) {
    const config = { ...(seller.config ?? {}) };
    if (typeof config.terms_html === 'string') config.terms_html = sanitizeSellerHtml(config.terms_html);
    const blocks = (Array.isArray(seller.content_blocks) ? seller.content_blocks : []).map((block: { html?: unknown }) =>
      typeof block.html === 'string' ? { ...block, html: sanitizeSellerHtml(block.html) } : block,
    );
    await db
      .updateTable('seller')
      .set({ config: JSON.stringify(config), content_blocks: JSON.stringify(blocks) })
      .where('id', '=', seller.id)
      .execute();
  }

  const maps = await db.selectFrom('seat_map').select(['id', 'other_elements']).execute();
  for (const map of maps) {
    const clean = sanitizeSellerSvg(map.other_elements);
    if (clean !== map.other_elements) await db.updateTable('seat_map').set({ other_elements: clean }).where('id', '=', map.id).execute();
  }
}

/** Nothing to undo: the unsanitised markup is not kept. */
export async function down(): Promise<void> {}
