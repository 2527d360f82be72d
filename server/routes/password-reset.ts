import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { DomainError } from '../http/errors';
import { sellerOf } from '../http/seller';
import { accountRoutes } from '../../src/contract/account';
import { requestPasswordReset, resetPassword, validateResetToken } from '../services/auth/reset';
import { resendByEmail } from '../services/auth/resend';
import { retryAfter } from './auth';

/** Recovery without logging in: password reset (request, validate, reset) and resending tickets. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.route({
    ...accountRoutes.passwordResetRequest,
    onError: retryAfter,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      return requestPasswordReset(deps, seller, request.body.email, request.ip);
    },
  });

  api.route({
    ...accountRoutes.passwordResetValidate,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      return validateResetToken(deps, seller, request.body.token);
    },
  });

  api.route({
    ...accountRoutes.passwordReset,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      const b = request.body;
      if (b.password_confirm !== undefined && b.password_confirm !== b.password) {
        throw new DomainError('validation_failed', 'Passwords must match.', 'password_reset', { field: 'password_confirm' });
      }
      return resetPassword(deps, seller, b.token, b.password);
    },
  });

  api.route({
    ...accountRoutes.resend,
    onError: retryAfter,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      const b = request.body;
      return resendByEmail(deps, seller, b.email, b.memberships_only === true, request.ip);
    },
  });
}
