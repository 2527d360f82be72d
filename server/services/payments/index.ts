import { DomainError } from '../errors';
import { freeGateway } from './free';
import { ledgerGateway } from './ledger';
import { createStripeGateway } from './stripe';
import { createTestGateway } from './test';
import type { Gateway, GatewaySettings } from './types';

export type { ChargeLookup, ChargeRequest, ChargeResult, Gateway, GatewayId, GatewaySettings } from './types';
export { paymentError } from './types';
export { stripeClient } from './stripe';
export { creditCard, findCard, GIFT_CARD, ledgerGuarded, setUnsafeSkipLedgerGuardForTests } from './ledger';

const built = new WeakMap<GatewaySettings, Record<string, Gateway | undefined>>();

/** The Stripe gateway is there when its three keys are set. */
export const stripeConfigured = (settings: GatewaySettings) =>
  Boolean(settings.stripeSecretKey && settings.stripePublishableKey && settings.stripeWebhookSecret);

/** The gateways of a server's settings, by id (DESIGN.md section 5); each lives in its own file and imports only ./types. */
export function gatewayFor(settings: GatewaySettings, id: string): Gateway {
  let gateways = built.get(settings);
  if (!gateways) {
    gateways = { free: freeGateway, ledger: ledgerGateway, test: createTestGateway(settings) };
    if (stripeConfigured(settings)) gateways.stripe = createStripeGateway(settings);
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
