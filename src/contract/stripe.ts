import { Type } from 'typebox';
import { answers, route } from './answers';
import { Row } from './primitives';

/**
 * Stripe's webhook (issue 14). Stripe posts the event as JSON signed in the `Stripe-Signature` header; the server
 * checks the signature on the raw body: 400 webhook_signature_invalid for a missing, wrong or stale one, 2xx for a
 * valid one, also when the event was seen before. Not cookie-authenticated, so it needs no X-Ticketing-App header.
 */
export const stripeRoutes = {
  webhook: route({
    method: 'POST',
    url: '/stripe/webhook',
    schema: {
      summary: "Stripe's payment events: books a paid cart (also when the shopper closed the tab), releases a failed one",
      tags: ['payments'],
      headers: Type.Object({ 'stripe-signature': Type.Optional(Type.String({ maxLength: 2000, pattern: '^[A-Za-z0-9=,]+$' })) }),
      response: answers(Row({ received: Type.Boolean(), duplicate: Type.Boolean() })),
    },
  }),
};
