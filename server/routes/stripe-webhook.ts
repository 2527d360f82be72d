import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { DomainError } from '../services/errors';
import { stripeClient, stripeConfigured } from '../services/payments';
import { handleStripeEvent } from '../services/checkout/stripe-events';
import { stripeRoutes } from '../../src/contract/stripe';

/** How old a signed event may be (seconds), as Stripe's own helper defaults to: an older one is a replay. */
export const WEBHOOK_TOLERANCE_S = 300;

/**
 * POST /api/stripe/webhook. Registered in a scope of its own that keeps the body as bytes: the signature is over the
 * raw body, which a JSON parse and re-serialise would not reproduce.
 */
export async function registerStripeWebhook(app: FastifyInstance, deps: Deps): Promise<void> {
  await app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
      scope.withTypeProvider<TypeBoxTypeProvider>().route({
        ...stripeRoutes.webhook,
        handler: async (request) => {
          if (!stripeConfigured(deps.config)) throw new DomainError('not_found', 'Stripe is not configured.');
          const signature = request.headers['stripe-signature'];
          const raw = request.body;
          if (!signature || !Buffer.isBuffer(raw)) throw invalidSignature();
          const stripe = await stripeClient(deps.config);
          let event;
          try {
            event = stripe.webhooks.constructEvent(raw, signature, deps.config.stripeWebhookSecret!, WEBHOOK_TOLERANCE_S);
          } catch {
            throw invalidSignature();
          }
          const outcome = await handleStripeEvent(deps, event);
          return { received: true, duplicate: outcome === 'duplicate' };
        },
      });
    },
    { prefix: '/api' },
  );
}

const invalidSignature = () => new DomainError('webhook_signature_invalid', 'The webhook signature is missing, wrong or too old.');
