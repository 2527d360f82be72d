import type { TSchema } from 'typebox';
import { ErrorBody } from './errors';

/**
 * The answers a route declares: its success and, for every route, the error body of spec section 8 for 4xx and
 * 5xx. Fastify serialises each answer with its schema; the OpenAPI document lists them.
 */
export const answers = <T extends TSchema>(ok: T) => ({ 200: ok, '4xx': ErrorBody, '5xx': ErrorBody }) as const;

/** A route's contract: the schemas Fastify checks and serialises with, and what the OpenAPI document says. */
export interface RouteContract {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  schema: {
    summary: string;
    tags: string[];
    params?: TSchema;
    querystring?: TSchema;
    headers?: TSchema;
    body?: TSchema;
    response: Record<string, TSchema>;
    /** A route that answers something else than JSON (an image, a script): its media type, for the document. */
    produces?: string[];
  };
}

/** Checks the shape of a route contract while keeping its literal type (for the type provider). */
export const route = <const R extends RouteContract>(r: R): R => r;
