import type { Db } from '../../db';
import type { ErrorCode } from '../../../src/contract/errors';
import { DomainError } from '../errors';

/**
 * Payment gateways behind one interface (DESIGN.md section 5). A gateway charges and answers, or throws a
 * DomainError with the provider's code (402) (card_declined, incorrect_cvc, intent_requires_action, ...).
 * It is called outside any database transaction: the checkout writes its attempt first (server/services/checkout.ts)
 * and records the outcome with the booking afterwards; when a process dies in between, the reconciler
 * (./reconcile.ts) asks `lookup` what became of the charge and books it or gives it back with `refund`.
 */
export type GatewayId = 'free' | 'test' | 'stripe' | 'ledger';

export interface ChargeRequest {
  db: Db;
  sellerId: string;
  cartId: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  /** The attempt's own key: the provider answers a repeated charge under one key with the same charge. */
  idempotencyKey: string;
  gatewayData: Record<string, unknown>;
  now: Date;
  /** What the shopper and the seller recognise the payment by at the provider (the cart number). */
  reference?: string;
  /** Keep the card for later charges (the shopper's opt-in, membership auto-renew): the result carries `reusable`. */
  savePaymentMethod?: boolean;
  /** Whose card it is: the identity the provider keeps saved cards under (a Stripe Customer). */
  identityId?: string;
  /**
   * Charge a card kept earlier: its token, from the identity's own `payment_method` row (never from the browser's
   * gateway_data, so a token alone pays nothing).
   */
  savedToken?: string;
  /** Nobody is there to confirm (the renewal job): the provider must not ask for 3-D Secure. */
  offSession?: boolean;
}

/** A card the provider keeps for later charges: its token (what a later charge names) and what may be shown of it. */
export interface ReusableMethod {
  token: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export interface ChargeResult {
  /** processing: a debit awaiting clearance; the provider's webhook (or the reconciler) books it when it clears. */
  status: 'succeeded' | 'processing';
  /** The provider's reference of the charge (what a refund names). */
  ref: string;
  /** Only when asked for (savePaymentMethod) and the provider kept the card. */
  reusable?: ReusableMethod;
}

/** What the provider knows of the charge made under an idempotency key. */
export type ChargeLookup =
  | { status: 'succeeded'; ref: string }
  | { status: 'requires_action'; ref: string }
  /** A debit still clearing: nothing to settle yet. */
  | { status: 'processing'; ref: string }
  | { status: 'none' };

export interface RefundRequest {
  db: Db;
  ref: string;
  amount: number;
  /** One refund per key, however often it is asked for. */
  idempotencyKey: string;
}

export interface Gateway {
  id: GatewayId;
  /** Smallest and largest amount this gateway takes (minor units of `currency`). */
  accepts(amount: number, currency: string): boolean;
  charge(req: ChargeRequest): Promise<ChargeResult>;
  lookup(req: { db: Db; idempotencyKey: string; ref: string | null }): Promise<ChargeLookup>;
  refund(req: RefundRequest): Promise<void>;
  /** The shopper removed a kept card: the provider forgets it too (Stripe detaches the PaymentMethod). */
  forget(req: { db: Db; token: string }): Promise<void>;
}

/** Settings a gateway is built from (server config; tests pass their own). */
export interface GatewaySettings {
  /** Tests only: how long the test gateway's answer takes after it has recorded a charge (a provider's latency). */
  testGatewayLatencyMs?: number;
  /** The Stripe gateway is on when the secret key is set (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET). */
  stripeSecretKey?: string;
  stripePublishableKey?: string;
  stripeWebhookSecret?: string;
  /** STRIPE_API_BASE: a Stripe-compatible server (tests, stripe-mock) instead of api.stripe.com. */
  stripeApiBase?: string;
}

export const paymentError = (code: ErrorCode, description: string, extra?: Record<string, unknown>) =>
  new DomainError(code, description, 'payment', extra);
