import { ERROR_STATUS, type ErrorBody } from '../../src/contract/errors';
import { DomainError } from '../services/errors';

/**
 * The one place a refusal becomes HTTP: the status of its `_code` (src/contract/errors.ts) and the body
 * `{ _data: [{ _code, _description, _context, _extra }] }` of spec section 8. Anything that is not a DomainError is
 * a 500 whose details stay in the log (server/app.ts).
 */
export const statusOf = (error: DomainError): number => ERROR_STATUS[error.code];

export function errorBody(error: DomainError): ErrorBody {
  return {
    _data: [
      {
        _code: error.code,
        _description: error.message,
        ...(error.context ? { _context: error.context } : {}),
        ...(error.extra ? { _extra: error.extra } : {}),
      },
    ],
  };
}

export { DomainError };
