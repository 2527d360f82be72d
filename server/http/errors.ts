import { ERROR_STATUS, type ErrorBody } from '../../src/contract/errors';
import { DomainError } from '../services/errors';

/**
 * The one place a refusal becomes HTTP: the status of its `_code` (src/contract/errors.ts) and the body
 * `{ _data: [{ _code, _context, _extra }] }` of spec section 8 (issue 18: no English on the wire; the storefront words
 * every code from its locale files and the seller's overrides, and the description stays in the server's log). Anything
 * that is not a DomainError is
 * a 500 whose details stay in the log (server/app.ts).
 */
export const statusOf = (error: DomainError): number => ERROR_STATUS[error.code];

export function errorBody(error: DomainError): ErrorBody {
  return {
    _data: [
      {
        _code: error.code,
        ...(error.context ? { _context: error.context } : {}),
        ...(error.extra ? { _extra: error.extra } : {}),
      },
    ],
  };
}

export { DomainError };
