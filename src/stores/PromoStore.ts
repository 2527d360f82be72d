import { makeAutoObservable, runInAction } from 'mobx';
import type { ApiClient } from '../api/http';
import { applyCodes } from '../api/promo';
import { toApiError } from '../api/errors';
import type { CartStore } from './CartStore';
import { PROMO_MAX, PROMO_MIN, promoCodeProblem } from '../domain/promo';
import { promoMessageKey } from '../domain/promo-messages';

export interface PromoStoreDeps {
  api: ApiClient;
  cart: CartStore;
  isLoggedIn: () => boolean;
}

/** A message to show: an i18n key and its values. */
export interface PromoMessage {
  key: string;
  values: Record<string, string | number>;
}

/**
 * The promo code field of the cart and checkout (spec sections 5, 8; issue 13): checks the code (trimmed, 2 to 35),
 * applies and removes codes through apply_code, and says what happened. The server prices the cart; the store only
 * takes its answer.
 */
export class PromoStore {
  input = '';
  busy = false;
  /** under the field: why the code was refused */
  error: PromoMessage | null = null;
  /** the polite live region: what was applied or removed */
  status: PromoMessage | null = null;

  private readonly deps: PromoStoreDeps;

  constructor(deps: PromoStoreDeps) {
    this.deps = deps;
    makeAutoObservable<PromoStore, 'deps'>(this, { deps: false }, { autoBind: true });
  }

  get applied() {
    return this.deps.cart.cart?.cart_mods ?? [];
  }

  setInput(value: string): void {
    this.input = value;
    if (this.error) this.error = null;
  }

  async apply(): Promise<boolean> {
    const code = this.input.trim();
    const problem = promoCodeProblem(code);
    this.status = null;
    if (problem) {
      const key = { required: 'promo.errors.required', min: 'promo.errors.minLength', max: 'promo.errors.maxLength' }[problem];
      this.error = { key, values: { limit: problem === 'min' ? PROMO_MIN : PROMO_MAX, code } };
      return false;
    }
    const ok = await this.send({ codes: [code] }, code);
    if (ok) {
      runInAction(() => {
        const mod = this.applied.find((m) => m.code.toLowerCase() === code.toLowerCase());
        this.input = '';
        this.status = { key: 'promo.applied', values: { code: mod?.code ?? code, name: mod?.name ?? '' } };
      });
    }
    return ok;
  }

  /**
   * Codes from the URL or preloaded state (spec section 7): each applied on its own without require_benefit, so one
   * refusal (shown under the field) does not keep the others off.
   */
  async applyPending(codes: string[]): Promise<void> {
    const present = new Set(this.applied.map((m) => m.code.toLowerCase()));
    const applied: string[] = [];
    for (const code of codes) {
      if (present.has(code.toLowerCase())) continue;
      if (await this.send({ codes: [code], require_benefit: false }, code)) applied.push(code);
    }
    const last = applied.length ? this.applied.find((m) => m.code.toLowerCase() === applied[applied.length - 1].toLowerCase()) : null;
    if (last) runInAction(() => (this.status = { key: 'promo.applied', values: { code: last.code, name: last.name } }));
  }

  /**
   * The blocked-cart code form (issue 13): puts a code on the cart without asking it for a discount (a checkout rule
   * only wants it there). Answers null when the cart took it, else the refusal's `_code`.
   */
  async applyCheckoutCode(code: string): Promise<string | null> {
    const cartId = this.deps.cart.cartId;
    if (!cartId) return 'cart_not_pending';
    try {
      this.deps.cart.accept(await applyCodes(this.deps.api, cartId, { codes: [code], require_benefit: false }, this.deps.isLoggedIn()));
      return null;
    } catch (err) {
      return toApiError(err)._code;
    }
  }

  async remove(code: string): Promise<boolean> {
    this.status = null;
    const ok = await this.send({ codes: [], remove_codes: [code] }, code);
    if (ok) runInAction(() => (this.status = { key: 'promo.removed', values: { code } }));
    return ok;
  }

  private async send(body: { codes: string[]; remove_codes?: string[]; require_benefit?: boolean }, code: string): Promise<boolean> {
    const cartId = this.deps.cart.cartId;
    if (!cartId || this.busy) return false;
    this.busy = true;
    this.error = null;
    try {
      const answer = await applyCodes(this.deps.api, cartId, body, this.deps.isLoggedIn());
      this.deps.cart.accept(answer);
      return true;
    } catch (err) {
      const refusal = toApiError(err);
      runInAction(() => {
        this.error = { key: promoMessageKey(refusal._code), values: { code } };
      });
      return false;
    } finally {
      runInAction(() => {
        this.busy = false;
      });
    }
  }
}
