import { promisify } from 'node:util';
import zlib from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyRequest } from 'fastify';

/**
 * How answers are compressed: @fastify/compress is registered with these options (server/app.ts), and the read cache
 * (read-cache.ts) compresses a kept answer once per encoding the same way, instead of once per request.
 */
export const COMPRESSION = {
  /** Smaller answers go as they are. */
  threshold: 1024,
  encodings: ['br', 'gzip'] as Array<'br' | 'gzip'>,
  /** Brotli at quality 4: fast enough per request. */
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
};

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The encoding @fastify/compress would choose for this request (its own negotiation: the same negotiator, `*` and
 * `x-gzip` read as gzip), or null where it would send the answer as it is.
 */
export function chosenEncoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const header = request.headers['accept-encoding'];
  if (!header || request.headers['x-no-compression'] !== undefined) return null;
  return negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), COMPRESSION.encodings);
}

export function compress(encoding: 'br' | 'gzip', body: string): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, COMPRESSION.brotliOptions) : gzip(body);
}
