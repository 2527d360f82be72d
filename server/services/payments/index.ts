import { DomainError } from '../errors';
import { freeGateway } from './free';
import { createTestGateway } from './test';
import type { Gateway, GatewaySettings } from './types';

export type { ChargeLookup, ChargeRequest, ChargeResult, Gateway, GatewayId, GatewaySettings } from './types';
export { paymentError } from './types';

const built = new WeakMap<GatewaySettings, Record<string, Gateway | undefined>>();

/** The gateways of a server's settings, by id (DESIGN.md section 5); each lives in its own file and imports only ./types. */
export function gatewayFor(settings: GatewaySettings, id: string): Gateway {
  let gateways = built.get(settings);
  if (!gateways) {
    gateways = { free: freeGateway, test: createTestGateway(settings) };
    built.set(settings, gateways);
  }
  const gateway = Object.hasOwn(gateways, id) ? gateways[id] : undefined;
  if (!gateway) throw new DomainError('gateway_not_found', `Payment gateway ${id} is not configured.`, 'payment', { gateway_id: id });
  return gateway;
}
