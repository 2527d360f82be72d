import { DomainError } from '../errors';
import { freeGateway } from './free';
import { testGateway } from './test';
import type { Gateway } from './types';

export type { ChargeRequest, ChargeResult, Gateway, GatewayId } from './types';
export { paymentError } from './types';

/** The gateways by id (DESIGN.md section 5); each lives in its own file and imports only ./types. */
export function gatewayFor(id: string): Gateway {
  const gateways: Record<string, Gateway | undefined> = { free: freeGateway, test: testGateway };
  const gateway = gateways[id];
  if (!gateway) throw new DomainError('gateway_not_found', `Payment gateway ${id} is not configured.`, 'payment', { gateway_id: id });
  return gateway;
}
