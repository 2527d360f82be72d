import { DomainError } from '../errors';
import { freeGateway } from './free';
import { ledgerGateway } from './ledger';
import { createTestGateway } from './test';
import type { Gateway, GatewaySettings } from './types';
import type StripeClient from 'stripe';
import { cardAmountSupported } from '../../../src/domain/checkout-rules';

export type { ChargeLookup, ChargeRequest, ChargeResult, Gateway, GatewayId, GatewaySettings } from './types';
export { paymentError } from './types';
export { creditCard, findCard, GIFT_CARD, ledgerGuarded, setUnsafeSkipLedgerGuardForTests } from './ledger';

/** The Stripe module (and the stripe package, about 0.2 s of a start) loads with the first call that needs it. */
let stripeModule: Promise<typeof import('./stripe')> | undefined;
const loadStripe = () => (stripeModule ??= import('./stripe'));

/** The stripe package's client for these settings, pointed at STRIPE_API_BASE when set. */
export async function stripeClient(settings: GatewaySettings): Promise<StripeClient> {
  return (await loadStripe()).stripeClient(settings);
}

/** The Stripe gateway (./stripe), whose code loads with its first call. */
function lazyStripeGateway(settings: GatewaySettings): Gateway {
  let real: Promise<Gateway> | undefined;
  const gateway = () => (real ??= loadStripe().then((m) => m.createStripeGateway(settings)));
  return {
    id: 'stripe',
    accepts: (amount, currency) => cardAmountSupported(amount, currency),
    charge: async (req) => (await gateway()).charge(req),
    lookup: async (req) => (await gateway()).lookup(req),
    refund: async (req) => (await gateway()).refund(req),
    forget: async (req) => (await gateway()).forget(req),
  };
}

const built = new WeakMap<GatewaySettings, Record<string, Gateway | undefined>>();

/** The Stripe gateway is there when its three keys are set. */
export const stripeConfigured = (settings: GatewaySettings) =>
  Boolean(settings.stripeSecretKey && settings.stripePublishableKey && settings.stripeWebhookSecret);

/** The gateways of a server's settings, by id (DESIGN.md section 5); each lives in its own file and imports only ./types. */
export function gatewayFor(settings: GatewaySettings, id: string): Gateway {
  let gateways = built.get(settings);
  if (!gateways) {
    gateways = { free: freeGateway, ledger: ledgerGateway, test: createTestGateway(settings) };
    if (stripeConfigured(settings)) gateways.stripe = lazyStripeGateway(settings);
    built.set(settings, gateways);
  }
  const gateway = Object.hasOwn(gateways, id) ? gateways[id] : undefined;
  if (!gateway) throw new DomainError('gateway_not_found', `Payment gateway ${id} is not configured.`, 'payment', { gateway_id: id });
  return gateway;
}

/**
 * The card gateway a seller takes payments through: its config's `payments.gateway` when set, else `stripe` when the
 * Stripe keys are set, else the built-in `test` gateway. A seller asking for Stripe on a server without its keys has
 * no card gateway (gateway_not_found), never the test one: test cards must not buy real tickets.
 */
export function cardGatewayId(settings: GatewaySettings, sellerConfig: Record<string, unknown> | null | undefined): 'test' | 'stripe' {
  const payments = sellerConfig?.payments as { gateway?: unknown } | undefined;
  if (payments?.gateway === 'stripe' || payments?.gateway === 'test') return payments.gateway;
  return stripeConfigured(settings) ? 'stripe' : 'test';
}
