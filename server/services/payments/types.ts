import type { Db } from '../../db';
import type { ErrorCode } from '../../../src/contract/errors';
import { DomainError } from '../errors';

/**
 * Payment gateways behind one interface (DESIGN.md section 5). A gateway charges and answers, or throws a
 * DomainError with the provider's code (402) (card_declined, incorrect_cvc, intent_requires_action, ...).
 * It is called outside any database transaction; the checkout records the result afterwards.
 */
export type GatewayId = 'free' | 'test';

export interface ChargeRequest {
  db: Db;
  sellerId: string;
  cartId: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  /** Derived from the cart, so a retried charge is the same charge at the provider. */
  idempotencyKey: string;
  gatewayData: Record<string, unknown>;
  now: Date;
}

export interface ChargeResult {
  status: 'succeeded';
  /** The provider's reference of the charge. */
  ref: string;
  /** A payment row the gateway already wrote (a confirmed intent), to be completed instead of inserting one. */
  paymentId?: string;
}

export interface Gateway {
  id: GatewayId;
  /** Smallest and largest amount this gateway takes (minor units). */
  accepts(amount: number): boolean;
  charge(req: ChargeRequest): Promise<ChargeResult>;
}

export const paymentError = (code: ErrorCode, description: string, extra?: Record<string, unknown>) =>
  new DomainError(code, description, 'payment', extra);
