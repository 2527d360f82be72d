import { makeAutoObservable, runInAction } from 'mobx';
import type { AxiosInstance } from 'axios';
import { createPurchaser, giftCheckout, guestCheckout, type CheckoutBody, type CheckoutResponse } from '../api/checkout';
import type { CartResponse } from '../api/cart';
import { decimalToMinor, toDecimal } from '../domain/pricing';
import { ERROR_MESSAGES } from '../domain/error-messages';
import type { ErrorCode } from '../contract/errors';
import { toApiError } from '../api/errors';
import { getCart } from '../api/cart';
import { getPaymentsConfig } from '../api/payments';
import { emailOrder, getOrder, getOrderQr, type OrderResponse } from '../api/orders';
import { walletPrecheck } from '../api/wallet';
import type { WalletProvider } from '../contract/wallet';
import {
  cardGatewayData,
  classifyCheckoutError,
  purchaserBody,
  type CardForm,
  type CheckoutFailure,
  type IdentityFormData,
} from '../domain/checkout-rules';
import type { CartStore } from './CartStore';
import type { IntentStorage } from './membership-intent';
import { track } from '../analytics/track';

export interface CheckoutStoreDeps {
  api: AxiosInstance;
  cart: CartStore;
  /** Keeps order access tokens for the confirmation page across a reload (sessionStorage in the browser). */
  tokenStorage?: { getItem(k: string): string | null; setItem(k: string, v: string): void } | null;
  /** Where the membership form left its auto-renew and giftee choices (membership-intent.ts; localStorage in the browser). */
  intents?: IntentStorage | null;
}

export type CheckoutOutcome =
  | { kind: 'completed'; orderIds: string[] }
  /** A part of a payment plan was paid (issue 13): the cart, with the rest still owed, is the shopper's again. */
  | { kind: 'partial'; paid: number }
  | { kind: 'requires_action' }
  /** The provider is still clearing the payment (a debit): the pending screen waits for the cart's orders. */
  | { kind: 'pending'; cartId: string }
  | { kind: 'failed' };

/** What pays a non-free order: the test gateway's card form, or a Stripe PaymentMethod the Payment Element made. */
export type PaymentInput =
  | { kind: 'card'; card: CardForm }
  | { kind: 'stripe'; paymentMethodId: string }
  /** a card the logged-in shopper saved before, by its id (issue 22): nothing is typed */
  | { kind: 'saved'; id: string };

export type LoadState = 'idle' | 'loading' | 'ready' | 'error';

/** The gift cards applied at checkout (GiftCardStore): charged first, each its part of what is owed. */
export interface GiftCards {
  readonly pending: ReadonlyArray<{ number: string; balance: number }>;
  markCharged(number: string): void;
  refuse(number: string, message: { key: string; values: Record<string, string | number> }): void;
}

const TOKEN_KEY = (orderId: string) => `storefront.orderToken.${orderId}`;

/** The payment step: purchaser identity, the guest checkout call and its outcomes, and the confirmation's orders. */
export class CheckoutStore {
  submitting = false;
  failure: CheckoutFailure | null = null;
  /** 402 intent_requires_action: the intent the shopper must confirm before the retry. */
  pendingIntentId: string | null = null;
  /** Stripe's client secret of that intent: the Payment Element confirms it in the browser (3-D Secure). */
  pendingClientSecret: string | null = null;
  /** Set when a checkout booked orders; the checkout screen moves on to the confirmation. */
  completedOrderIds: string[] | null = null;

  completionState: LoadState = 'idle';
  /** 404: the orders are not ours or do not exist ('We could not find that order.'). */
  completionNotFound = false;
  orders: OrderResponse[] = [];
  /** QR images fetched with an order's access token (object URLs), by order id. */
  qrImages = new Map<string, string>();
  /** The wallet pass links' signatures of each ticket, by ticket id and provider, where its precheck said ok (issue 17). */
  walletPasses = new Map<string, Partial<Record<WalletProvider, string>>>();
  private lastPurchaser: { key: string; id: string; proof?: string } | null = null;
  /** The shopper's 'save this card' choice for the attempt under way (kept for the 3-D Secure retry). */
  private savePaymentMethod = false;
  private lastAttempt: { identity: IdentityFormData | null } | null = null;
  /** The gift cards the attempt under way charges before the card (issue 13). */
  private giftCards: GiftCards | null = null;
  /** A payment plan's part (minor units): what the shopper chose to pay now, less than the balance (issue 13). */
  private partAmount: number | null = null;
  private readonly deps: CheckoutStoreDeps;

  constructor(deps: CheckoutStoreDeps) {
    this.deps = deps;
    makeAutoObservable<CheckoutStore, 'deps' | 'lastPurchaser' | 'lastAttempt' | 'savePaymentMethod' | 'giftCards' | 'partAmount'>(
      this,
      { deps: false, lastPurchaser: false, lastAttempt: false, savePaymentMethod: false, giftCards: false, partAmount: false },
      { autoBind: true },
    );
  }

  private get tokens() {
    if (this.deps.tokenStorage !== undefined) return this.deps.tokenStorage;
    try {
      return typeof window !== 'undefined' ? window.sessionStorage : null;
    } catch {
      return null;
    }
  }

  accessTokenOf(orderId: string): string | null {
    return this.tokens?.getItem(TOKEN_KEY(orderId)) ?? null;
  }

  clearFailure(): void {
    this.failure = null;
  }

  /**
   * POST user (reused while the details are unchanged; skipped for a logged-in user, `identity` null), then
   * POST cart/{id}/guest_checkout for the outstanding amount. `card` is null for a free order (gateway free, no email per spec section 7).
   */
  async submit(
    identity: IdentityFormData | null,
    payment: CardForm | PaymentInput | null,
    opts: { savePaymentMethod?: boolean; giftCards?: GiftCards | null; amount?: number | null } = {},
  ): Promise<CheckoutOutcome> {
    const input: PaymentInput | null = payment && 'kind' in payment ? payment : payment ? { kind: 'card', card: payment } : null;
    this.savePaymentMethod = Boolean(input && input.kind !== 'saved' && opts.savePaymentMethod);
    this.giftCards = opts.giftCards ?? null;
    this.partAmount = opts.amount ?? null;
    if (!input) return this.run(identity, {});
    if (input.kind === 'saved') return this.run(identity, { saved_payment_method: input.id });
    return input.kind === 'stripe'
      ? this.run(identity, { payment_method: input.paymentMethodId })
      : this.run(identity, cardGatewayData(input.card));
  }

  /** The shopper confirmed the extra step: retry with the intent id as the source. */
  async confirmPendingAction(): Promise<CheckoutOutcome> {
    const intentId = this.pendingIntentId;
    const attempt = this.lastAttempt;
    this.pendingIntentId = null;
    this.pendingClientSecret = null;
    if (!intentId || !attempt) return { kind: 'failed' };
    return this.run(attempt.identity, { source: intentId });
  }

  cancelPendingAction(): void {
    this.pendingIntentId = null;
    this.pendingClientSecret = null;
  }

  /** Stripe.js is not there to pay with: still loading, or blocked ('... Stripe was unable to load ...'). */
  failProvider(state: 'loading' | 'unavailable'): void {
    this.failure = { kind: 'provider', state };
  }

  /** The provider's own confirmation step failed or was closed (Stripe's 3-D Secure): say so like a decline. */
  async failPendingAction(providerMessage: string): Promise<void> {
    this.cancelPendingAction();
    await this.fail({ kind: 'payment', providerMessage });
  }

  private async run(identity: IdentityFormData | null, gatewayData: CheckoutBody['gateway_data']): Promise<CheckoutOutcome> {
    const { cart } = this.deps;
    const row = cart.cart;
    if (this.submitting || !row || !cart.cartId) return { kind: 'failed' };
    this.submitting = true;
    this.failure = null;
    this.lastAttempt = { identity };
    let charging: string | null = null;
    try {
      // No identity: a logged-in user buys as themselves (their cart, or a guest cart they logged in with).
      const purchaser = identity ? await this.purchaserId(identity) : undefined;
      // The purchaser fields of every checkout call: the identity, and the proof when it is an account's (issue 13).
      const guest = purchaser
        ? { guest_identity_id: purchaser.id, ...(purchaser.proof ? { guest_identity_proof: purchaser.proof } : {}) }
        : {};
      // The membership form's choices (issue 12): auto-renew on the checkout, or the gift checkout naming the giftee.
      // (Imported when paying: the checkout's first load stays as it was.)
      const { browserIntentStorage, clearMembershipIntent, readMembershipIntent } = await import('./membership-intent');
      const intents = this.deps.intents === undefined ? browserIntentStorage() : this.deps.intents;
      const intent = readMembershipIntent(intents, row.id);
      const post = (body: CheckoutBody) =>
        intent.gifteeIdentityId
          ? giftCheckout(this.deps.api, row.id, { ...body, giftee_identity_id: intent.gifteeIdentityId }, !purchaser)
          : guestCheckout(this.deps.api, row.id, body);
      // Gift cards first (issue 13): each pays its part of what is still owed; the one that pays the last of it books
      // the order, otherwise the answer is the cart with the card's payment on it.
      // On a payment plan the shopper chose how much to pay now: the gift cards pay out of that, the card the rest of it.
      let budget = this.partAmount ?? Number.POSITIVE_INFINITY;
      let giftPaid = 0;
      let response: CheckoutResponse | null = null;
      for (const card of [...(this.giftCards?.pending ?? [])]) {
        const owed = decimalToMinor(cart.cart?.cart_fees.grand_totals.total_outstanding);
        const take = Math.min(card.balance, owed, budget);
        if (take <= 0) break;
        budget -= take;
        giftPaid += take;
        charging = card.number;
        response = await post({
          amount: toDecimal(take),
          gateway_id: 'ledger',
          gateway_data: { number: card.number },
          ...guest,
          send_email: true,
        } as CheckoutBody);
        charging = null;
        const number = card.number;
        runInAction(() => this.giftCards?.markCharged(number));
        if (response.ticket_order?._data?.length) break;
        if (response.cart) cart.accept(response as CartResponse);
        response = null;
      }
      const current = cart.cart ?? row;
      const owed = current.cart_fees.grand_totals.total_outstanding;
      // The gift cards paid all of the chosen part: nothing more is charged now.
      if (!response && this.partAmount !== null && giftPaid > 0 && giftPaid >= this.partAmount) return { kind: 'partial', paid: giftPaid };
      const rest = this.partAmount !== null ? this.partAmount - giftPaid : null;
      const part = rest !== null && rest > 0 && rest < decimalToMinor(owed) ? rest : null;
      const amount = part !== null ? toDecimal(part) : owed;
      const free = Number(amount) === 0;
      // An order's edit (issue 17): the server mails the update itself, and it is no new purchase.
      const edit = !!current.edit_order_id;
      if (!response) {
        const body = {
          amount,
          gateway_id: free ? 'free' : current.cart_fees.gateway_id === 'stripe' ? 'stripe' : 'test',
          gateway_data: free ? {} : gatewayData,
          ...guest,
          send_email: !free || edit,
        } as CheckoutBody;
        if (!free && !edit)
          track({ name: 'add_payment_info', cart: row, paymentType: gatewayData && 'payment_method' in gatewayData ? 'stripe' : 'card' });
        if (intent.autoRenew && !intent.gifteeIdentityId) body.auto_renew = true;
        if (this.savePaymentMethod && !free) body.save_payment_method = true;
        response = await post(body);
      }
      clearMembershipIntent(intents, row.id);
      const pending = response.pending_payment?._data?.[0];
      if (pending) {
        // Nothing more can change in the cart while the bank clears it; the pending screen follows it by its id.
        runInAction(() => this.deps.cart.clear());
        return { kind: 'pending', cartId: pending.cart_id };
      }
      // A part of a payment plan (issue 13): the answer is the cart, with the rest still owed.
      if (!response.ticket_order && response.cart) {
        cart.accept(response as CartResponse);
        return { kind: 'partial', paid: giftPaid + decimalToMinor(amount) };
      }
      const orders = response.ticket_order?._data ?? [];
      for (const order of orders) if (order.access_token) this.tokens?.setItem(TOKEN_KEY(order.id), order.access_token);
      // A free checkout books without the receipt (spec section 7: send_email false), then asks for the order's mail:
      // its tickets and the manage link. The order stands whatever the mail does.
      if (free && !edit) await Promise.all(orders.map((o) => emailOrder(this.deps.api, o.id).catch(() => undefined)));
      if (!edit) track({ name: 'purchase', cart: row, orderIds: orders.map((o) => o.id) });
      return this.complete(orders.map((o) => o.id));
    } catch (error) {
      const failure = classifyCheckoutError(toApiError(error));
      if (failure.kind === 'gift_card' && charging) return await this.failGiftCard(charging, failure);
      return await this.fail(failure);
    } finally {
      runInAction(() => {
        this.submitting = false;
      });
    }
  }

  private async fail(failure: CheckoutFailure): Promise<CheckoutOutcome> {
    const { cart } = this.deps;
    switch (failure.kind) {
      case 'requires_action':
        runInAction(() => {
          this.pendingIntentId = failure.intentId;
          this.pendingClientSecret = failure.clientSecret;
        });
        return { kind: 'requires_action' };
      case 'payment':
      case 'blocked':
        // Spec section 8: payment errors refresh the cart, which stays as it was; a blocked cart shows its rule.
        await cart.load();
        break;
      case 'expired':
        cart.expire();
        break;
      case 'booked':
        if (failure.orderId) return this.complete([failure.orderId]);
        break;
      default:
        break;
    }
    runInAction(() => {
      this.failure = failure;
    });
    return { kind: 'failed' };
  }

  /**
   * A gift card the checkout could not charge (its balance changed, it was used meanwhile): it comes off the list with
   * the reason under the gift card field, and the cart is read again (cards before it may have paid their parts).
   */
  private async failGiftCard(number: string, failure: Extract<CheckoutFailure, { kind: 'gift_card' }>): Promise<CheckoutOutcome> {
    const key = ERROR_MESSAGES[failure.code as ErrorCode] ?? 'giftCard.errors.unknown';
    runInAction(() => this.giftCards?.refuse(number, { key, values: { number } }));
    await this.deps.cart.load();
    return { kind: 'failed' };
  }

  /** One action: the screen sees the orders and the emptied cart together, never an empty cart alone. */
  private complete(orderIds: string[]): CheckoutOutcome {
    runInAction(() => {
      this.completedOrderIds = orderIds;
      this.deps.cart.clear();
    });
    return { kind: 'completed', orderIds };
  }

  /** The confirmation page took over the result. */
  consumeCompletion(): void {
    this.completedOrderIds = null;
  }

  private async purchaserId(identity: IdentityFormData): Promise<{ id: string; proof?: string }> {
    const body = purchaserBody(identity);
    const key = JSON.stringify(body);
    if (this.lastPurchaser?.key === key) return this.lastPurchaser;
    let found: { id: string; proof?: string };
    try {
      found = { id: await createPurchaser(this.deps.api, body) };
    } catch (error) {
      // Spec section 7: a 409 naming an identity_id means the purchaser exists already; use it (with the proof the
      // server gave for an account whose password was given here, issue 13).
      const apiError = toApiError(error);
      const existing = apiError.status === 409 ? apiError._extra?.identity_id : undefined;
      if (typeof existing !== 'string') throw apiError;
      const proof = apiError._extra?.identity_proof;
      found = { id: existing, ...(typeof proof === 'string' ? { proof } : {}) };
    }
    this.lastPurchaser = { key, ...found };
    return found;
  }

  /** Stripe's publishable key for this seller, or null when it has none (GET config?key._in=payments). */
  async stripePublishableKey(): Promise<string | null> {
    return (await getPaymentsConfig(this.deps.api)).publishable_key ?? null;
  }

  /** The pending screen's question: has the payment cleared (the cart's orders), or failed (the cart payable again)? */
  async pendingStatus(cartId: string): Promise<{ reference: string; orderIds: string[]; payable: boolean } | null> {
    const row = (await getCart(this.deps.api, cartId)).cart?._data?.[0];
    return row ? { reference: row.cart_number, orderIds: row.ticket_order_ids, payable: row.state === 'pending' } : null;
  }

  /**
   * The QR codes of the orders this browser paid for, fetched with their access tokens (a header: the token never
   * goes into an address); an order without a token here shows its QR through the owner's cookie.
   */
  private async loadQrImages(orderIds: string[]): Promise<void> {
    for (const id of orderIds) {
      const token = this.accessTokenOf(id);
      if (!token || this.qrImages.has(id) || typeof URL.createObjectURL !== 'function') continue;
      try {
        const url = URL.createObjectURL(await getOrderQr(this.deps.api, id, token));
        runInAction(() => this.qrImages.set(id, url));
      } catch {
        // The cookie route stays: the image shows if this browser still owns the order.
      }
    }
  }

  /**
   * GET ticket/{id}/walletprecheck for the orders' booked tickets. The first answer tells whether the seller offers any
   * wallet at all: when neither is configured the other tickets are not asked about.
   */
  private async loadWalletPasses(orders: OrderResponse[]): Promise<void> {
    const tickets = orders.flatMap((order) => {
      const orderId = order.ticket_order._data[0]?.id ?? '';
      return (order.ticket?._data ?? []).filter((t) => t.state === 'booked' || t.state === 'redeemed').map((t) => ({ id: t.id, orderId }));
    });
    const check = async ({ id, orderId }: { id: string; orderId: string }) => {
      const rows = await walletPrecheck(this.deps.api, id, this.accessTokenOf(orderId));
      const ok = Object.fromEntries(rows.filter((r) => r.ok && r.sig).map((r) => [r.provider, r.sig!]));
      if (Object.keys(ok).length > 0) runInAction(() => this.walletPasses.set(id, ok));
      return rows.some((r) => r.reason !== 'not_configured');
    };
    try {
      if (tickets.length === 0 || !(await check(tickets[0]))) return;
      await Promise.all(tickets.slice(1).map(check));
    } catch {
      // No pass links then: the QR code and the e-mail still admit.
    }
  }

  walletPassesOf(ticketId: string): Partial<Record<WalletProvider, string>> | null {
    return this.walletPasses.get(ticketId) ?? null;
  }

  qrImageOf(orderId: string): string | null {
    return this.qrImages.get(orderId) ?? null;
  }

  /** The confirmation page: every order in orderIds (GET ticket_order/{id}). */
  async loadCompletion(orderIds: string[]): Promise<void> {
    this.completionState = 'loading';
    this.completionNotFound = false;
    try {
      const orders = await Promise.all(orderIds.map((id) => getOrder(this.deps.api, id, this.accessTokenOf(id))));
      runInAction(() => {
        this.orders = orders;
        this.completionState = 'ready';
      });
      void this.loadQrImages(orderIds);
      void this.loadWalletPasses(orders);
    } catch (error) {
      const status = toApiError(error).status;
      runInAction(() => {
        this.orders = [];
        this.completionNotFound = status === 404 || status === 400;
        this.completionState = 'error';
      });
    }
  }
}
