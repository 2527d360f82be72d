import type { Db } from '../db';
import { DomainError } from './errors';

export interface StoredImage {
  contentType: string;
  data: Buffer;
  etag: string;
}

/** An image's stored bytes. Sizes are hints only: the stored images are SVG and scale themselves. */
export async function getImage(db: Db, imageId: string): Promise<StoredImage> {
  const row = await db.selectFrom('image').select(['content_type', 'data', 'sha256']).where('id', '=', imageId).executeTakeFirst();
  if (!row) throw new DomainError('image_not_found', 'Resource image not found.', undefined, { resource: 'image', id: imageId });
  return { contentType: row.content_type, data: Buffer.from(row.data), etag: `"${row.sha256}"` };
}
