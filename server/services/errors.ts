import type { ErrorCode } from '../../src/contract/errors';

/**
 * A refusal by a rule: its `_code` (the contract's union, src/contract/errors.ts), a description, where in the
 * flow it arose and the facts about it. Services throw these and know nothing of HTTP: the one error handler
 * (server/http/errors.ts) gives each code its status and body.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    description: string,
    readonly context?: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(description);
    this.name = 'DomainError';
  }
}

/** 'Resource {type} not found.' (spec section 8). */
export const notFound = (resource: string, id?: string) =>
  new DomainError('not_found', `Resource ${resource} not found.`, undefined, { resource, ...(id ? { id } : {}) });

/** Input a schema could not refuse: the failing field in `_extra`. */
export const invalid = (field: string, description: string, context?: string, extra?: Record<string, unknown>) =>
  new DomainError('validation_failed', description, context, { field, ...extra });

/** Whether a database error is the unique index `index` refusing a row (PostgreSQL and PGlite both say 23505). */
export const isUniqueViolation = (err: unknown, index: string) =>
  (err as { code?: string })?.code === '23505' &&
  String((err as { constraint?: string; message?: string }).constraint ?? (err as Error).message).includes(index);
