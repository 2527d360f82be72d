/**
 * Every refusal the API gives is an ApiError with a `_code` from spec section 8 (or validation_failed /
 * not_found / ...). One error handler (app.ts) turns it into
 * `{ _data: [{ _code, _description, _context, _extra }] }` with its HTTP status; anything else is a 500
 * whose details stay in the log.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    description: string,
    readonly context?: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(description);
    this.name = 'ApiError';
  }
  toBody() {
    return {
      _data: [{
        _code: this.code,
        _description: this.message,
        ...(this.context ? { _context: this.context } : {}),
        ...(this.extra ? { _extra: this.extra } : {}),
      }],
    };
  }
}

export const notFound = (resource: string, id?: string) =>
  new ApiError(404, 'not_found', `Resource ${resource} not found.`, undefined, { resource, ...(id ? { id } : {}) });

export const badRequest = (code: string, description: string, extra?: Record<string, unknown>, context?: string) =>
  new ApiError(400, code, description, context, extra);
