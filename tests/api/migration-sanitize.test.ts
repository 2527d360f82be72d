import { expect, it } from 'vitest';
import { up } from '../../server/db/migrations/003-sanitize-seller-html';
import { loadDemo } from '../helpers/auth';
import { describeEachDatabase } from '../helpers/db';

const PAYLOAD = '<p>Hello <img src=x onerror="window.__xss=1"><a href="javascript:alert(1)">link</a></p><script>alert(1)</script>';

describeEachDatabase('migration 003 cleans seller HTML stored before server-side sanitising', (ctx) => {
  it('removes script, handlers and javascript: links from descriptions, terms and content blocks; keeps the text', async () => {
    const { db } = ctx();
    const sellerId = await loadDemo(db, new Date('2026-11-21T15:00:00Z'));
    // What an older loader stored: the raw seller markup.
    const event = await db.selectFrom('event_template').select('id').where('seller_id', '=', sellerId).limit(1).executeTakeFirstOrThrow();
    await db.updateTable('event_template').set({ description: PAYLOAD }).where('id', '=', event.id).execute();
    const seller = await db.selectFrom('seller').select(['config', 'content_blocks']).where('id', '=', sellerId).executeTakeFirstOrThrow();
    const blocks = [...(seller.content_blocks as any[]), { name: 'old', html: PAYLOAD }];
    await db
      .updateTable('seller')
      .set({
        config: JSON.stringify({ ...(seller.config as object), terms_html: PAYLOAD }),
        content_blocks: JSON.stringify(blocks),
      })
      .where('id', '=', sellerId)
      .execute();

    await up(db);

    const after = await db.selectFrom('event_template').select('description').where('id', '=', event.id).executeTakeFirstOrThrow();
    const sellerAfter = await db
      .selectFrom('seller')
      .select(['config', 'content_blocks'])
      .where('id', '=', sellerId)
      .executeTakeFirstOrThrow();
    const texts = [
      after.description!,
      (sellerAfter.config as any).terms_html,
      (sellerAfter.content_blocks as any[]).find((b) => b.name === 'old').html,
    ];
    for (const html of texts) {
      expect(html).toContain('Hello');
      expect(html).toContain('link');
      expect(html).not.toMatch(/<script|onerror|javascript:/i);
    }
    // Everything else in the seller row is kept.
    expect((sellerAfter.content_blocks as any[]).length).toBe(blocks.length);
    expect((sellerAfter.config as any).slug).toBe((seller.config as any).slug);
  });
});
