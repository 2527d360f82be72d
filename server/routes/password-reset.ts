import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { DomainError } from '../http/errors';
import { sellerOf } from '../http/seller';
import { requestPasswordReset, resetPassword, validateResetToken } from '../services/auth/reset';
import { resendByEmail } from '../services/auth/resend';
import { retryAfter } from './auth';

const str = (max: number) => ({ type: 'string', maxLength: max });
const sellerQuery = { type: 'object', properties: { _seller: { type: 'string', maxLength: 100 } } };
const body = (required: string[], properties: Record<string, object>) =>
  ({ type: 'object', required, additionalProperties: false, properties });

/** Recovery without logging in: password reset (request, validate, reset) and resending tickets. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  app.post('/password_reset/request', {
    schema: { querystring: sellerQuery, body: body(['email'], { email: str(254), state: str(100) }) }, onError: retryAfter,
  }, async (request) => {
    const seller = await sellerOf(deps, request);
    await requestPasswordReset(deps, seller, (request.body as { email: string }).email, request.ip);
    // The same answer whether or not the address has an account.
    return { password_reset: { _data: [{ requested: true }], _count: 1 } };
  });

  app.post('/password_reset/validate', {
    schema: { querystring: sellerQuery, body: body(['token'], { token: str(100) }) },
  }, async (request) => {
    const seller = await sellerOf(deps, request);
    const email = await validateResetToken(deps, seller, (request.body as { token: string }).token);
    return { identity: { _data: [{ email }], _count: 1 } };
  });

  app.post('/password_reset/reset', {
    schema: { querystring: sellerQuery, body: body(['token', 'password'], { token: str(100), password: str(1024), password_confirm: str(1024) }) },
  }, async (request) => {
    const seller = await sellerOf(deps, request);
    const b = request.body as { token: string; password: string; password_confirm?: string };
    if (b.password_confirm !== undefined && b.password_confirm !== b.password) {
      throw new DomainError('validation_failed', 'Passwords must match.', 'password_reset', { field: 'password_confirm' });
    }
    const email = await resetPassword(deps, seller, b.token, b.password);
    return { identity: { _data: [{ email }], _count: 1 } };
  });

  app.post('/ticket_order/resend', {
    schema: { querystring: sellerQuery, body: body(['email'], { email: str(254), memberships_only: { type: 'boolean' } }) },
    onError: retryAfter,
  }, async (request) => {
    const seller = await sellerOf(deps, request);
    const b = request.body as { email: string; memberships_only?: boolean };
    const sent = await resendByEmail(deps, seller, b.email, b.memberships_only === true, request.ip);
    return { ticket_order: { _data: [], _count: sent } };
  });
}
