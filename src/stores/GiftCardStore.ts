import { makeAutoObservable, runInAction } from 'mobx';
import type { ApiClient } from '../api/http';
import { getGiftCard } from '../api/ledger';
import { toApiError } from '../api/errors';
import type { CartStore } from './CartStore';
import { GIFT_CARD_MAX, giftCardNumberProblem, giftCardPlan, normaliseGiftCardNumber } from '../domain/gift-card';
import { decimalToMinor } from '../domain/pricing';

export interface GiftCardStoreDeps {
  api: ApiClient;
  cart: CartStore;
}

/** A message to show: an i18n key and its values. */
export interface GiftCardMessage {
  key: string;
  values: Record<string, string | number>;
}

/** A card the shopper applied: checked (GET ledger), not charged until they pay. */
export interface AppliedGiftCard {
  number: string;
  /** minor units, as the lookup read it */
  balance: number;
}

/**
 * The checkout's gift card field (spec sections 3, 5, 8; issue 13). A card typed is looked up and listed with what it
 * will pay; nothing is taken from it until the shopper pays, when the checkout charges each card its part through the
 * ledger gateway and the rest goes to the card payment (CheckoutStore). Cards already charged come from the cart.
 */
export class GiftCardStore {
  input = '';
  busy = false;
  error: GiftCardMessage | null = null;
  status: GiftCardMessage | null = null;
  /** applied, in the order they were typed, not yet charged */
  pending: AppliedGiftCard[] = [];

  private readonly deps: GiftCardStoreDeps;

  constructor(deps: GiftCardStoreDeps) {
    this.deps = deps;
    makeAutoObservable<GiftCardStore, 'deps'>(this, { deps: false }, { autoBind: true });
  }

  /** Cards that paid part of the cart already (the server's gift card payments). */
  get charged() {
    return this.deps.cart.cart?.gift_card_payments ?? [];
  }

  /** What the cart still owes, before the applied cards. */
  get outstanding(): number {
    return decimalToMinor(this.deps.cart.cart?.cart_fees.grand_totals.total_outstanding) ?? 0;
  }

  /** Each applied card's part (minor units, in `pending` order) and what is left for the card payment. */
  get plan(): { payments: number[]; rest: number } {
    return giftCardPlan(
      this.outstanding,
      this.pending.map((c) => c.balance),
    );
  }

  /** The applied cards pay everything that is owed: no card payment is asked. */
  get coversOrder(): boolean {
    return this.pending.length > 0 && this.plan.rest === 0;
  }

  setInput(value: string): void {
    this.input = value;
    if (this.error) this.error = null;
  }

  async apply(): Promise<boolean> {
    const typed = this.input;
    const problem = giftCardNumberProblem(typed);
    this.status = null;
    if (problem) {
      this.error =
        problem === 'required'
          ? { key: 'giftCard.errors.required', values: {} }
          : { key: 'giftCard.errors.maxLength', values: { limit: GIFT_CARD_MAX } };
      return false;
    }
    const number = normaliseGiftCardNumber(typed);
    const known = [...this.pending.map((c) => c.number), ...this.charged.map((c) => c.card_number)];
    if (known.some((n) => n.toUpperCase() === number)) {
      this.error = { key: 'giftCard.errors.applied', values: {} };
      return false;
    }
    if (this.busy) return false;
    this.busy = true;
    this.error = null;
    try {
      const card = await getGiftCard(this.deps.api, number);
      const balance = decimalToMinor(card.balance) ?? 0;
      if (card.state !== 'active' || balance <= 0) {
        runInAction(() => (this.error = { key: 'giftCard.errors.empty', values: {} }));
        return false;
      }
      runInAction(() => {
        this.pending.push({ number: card.number, balance });
        this.input = '';
        this.status = { key: 'giftCard.applied', values: { number: card.number } };
      });
      return true;
    } catch (err) {
      const refusal = toApiError(err);
      runInAction(() => {
        this.error = {
          key:
            refusal.status === 404
              ? 'giftCard.errors.notFound'
              : refusal._code === 'rate_limited'
                ? 'errors.rateLimited'
                : 'giftCard.errors.unknown',
          values: {},
        };
      });
      return false;
    } finally {
      runInAction(() => {
        this.busy = false;
      });
    }
  }

  remove(number: string): void {
    this.pending = this.pending.filter((c) => c.number !== number);
    this.status = { key: 'giftCard.removed', values: { number } };
  }

  /** The checkout charged this card (its payment is on the cart now). */
  markCharged(number: string): void {
    this.pending = this.pending.filter((c) => c.number !== number);
  }

  /** A card the checkout could not charge (its balance changed, it was used meanwhile): off the list, and why. */
  refuse(number: string, message: GiftCardMessage): void {
    this.pending = this.pending.filter((c) => c.number !== number);
    this.error = message;
  }
}
