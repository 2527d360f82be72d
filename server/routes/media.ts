import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { getImage } from '../services/media';
import { boolFlag, query, uuid } from './schemas';

const IMAGE_CACHE = 'public, max-age=31536000, immutable';

export function registerMediaRoutes(app: FastifyInstance, deps: Deps) {
  app.get('/image/:imageId', {
    schema: {
      params: { type: 'object', required: ['imageId'], properties: { imageId: uuid } },
      // Size hints of spec section 9 (teaser 272x216 at double size, cover 1500 wide); images are SVG for now.
      querystring: query({
        sizex: { type: 'integer', minimum: 1, maximum: 10000 },
        sizey: { type: 'integer', minimum: 1, maximum: 10000 },
        shrinkonly: boolFlag,
      }),
    },
    // The API-wide hook marks API answers no-store; an image by id never changes, so it may be kept a year.
    onSend: async (request, reply, payload) => {
      if (reply.statusCode < 400) reply.header('Cache-Control', IMAGE_CACHE);
      return payload;
    },
  }, async (request, reply) => {
    const { imageId } = request.params as { imageId: string };
    const image = await getImage(deps.db, imageId);
    reply.header('ETag', image.etag);
    reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    if (request.headers['if-none-match'] === image.etag) return reply.status(304).send();
    return reply.type(image.contentType).send(image.data);
  });
}
