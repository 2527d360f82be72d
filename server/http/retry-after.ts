import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from './errors';

/** A 429 tells the browser when to come back. */
export const retryAfter = async (_req: FastifyRequest, reply: FastifyReply, error: Error) => {
  if (error instanceof DomainError && error.code === 'rate_limited') reply.header('Retry-After', String(error.extra?.retry_after ?? 60));
};
