import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { getImage } from '../services/media';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { catalogueRoutes } from '../../src/contract/catalogue';

const IMAGE_CACHE = 'public, max-age=31536000, immutable';

export function registerMediaRoutes(app: FastifyInstance, deps: Deps) {
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    ...catalogueRoutes.image,
    // The API-wide hook marks API answers no-store; an image by id never changes, so it may be kept a year.
    onSend: async (request, reply, payload) => {
      if (reply.statusCode < 400) reply.header('Cache-Control', IMAGE_CACHE);
      return payload;
    },
    handler: async (request, reply) => {
      const { imageId } = request.params;
      const image = await getImage(deps.db, imageId);
      reply.header('ETag', image.etag);
      reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      if (request.headers['if-none-match'] === image.etag) return reply.status(304).send(null);
      return reply.type(image.contentType).send(image.data);
    },
  });
}
