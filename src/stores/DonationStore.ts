import { makeAutoObservable, runInAction } from 'mobx';
import type { ApiClient } from '../api/http';
import { loadDonationType, type DonationType } from '../api/donation';
import { toApiError } from '../api/errors';
import { toDecimal } from '../domain/pricing';
import type { CartStore } from './CartStore';

export type DonationOutcome = 'added' | 'out_of_range' | 'failed';

/** The checkout's donation offer (DonationSection.tsx): the seller's donation type, and adding an amount to the cart. */
export class DonationStore {
  type: DonationType | null = null;
  busy = false;

  constructor(private readonly deps: { api: ApiClient; cart: CartStore; groupId: string | null }) {
    makeAutoObservable<this, 'deps'>(this, { deps: false });
    if (deps.groupId) void this.load(deps.groupId);
  }

  private async load(groupId: string): Promise<void> {
    try {
      const type = await loadDonationType(this.deps.api, groupId);
      runInAction(() => (this.type = type));
    } catch {
      // The offer is optional: a failed read leaves the checkout as it is.
    }
  }

  /** Puts `amount` (minor units) in the cart; the server checks the range again. */
  async add(amount: number | null): Promise<DonationOutcome> {
    const type = this.type;
    if (!type) return 'failed';
    if (amount === null || !Number.isFinite(amount) || amount < type.min || amount > type.max) return 'out_of_range';
    this.busy = true;
    try {
      await this.deps.cart.reserve([{ ticket_type_id: type.id, face_value: toDecimal(amount) }]);
      return 'added';
    } catch (error) {
      return toApiError(error)._code === 'validation_failed' ? 'out_of_range' : 'failed';
    } finally {
      runInAction(() => (this.busy = false));
    }
  }
}
