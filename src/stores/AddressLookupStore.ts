import { makeAutoObservable, runInAction } from 'mobx';
import type { ApiClient } from '../api/http';
import { findAddresses, retrieveAddress } from '../api/address';
import type { AddressSuggestion } from '../contract/address';
import { ADDRESS_SEARCH_DEBOUNCE_MS, ADDRESS_SEARCH_MIN, addressFields, type AddressFields } from '../domain/address';

/** What the lookup last has to say (its live region words it). */
export type AddressLookupNews =
  { kind: 'none' } | { kind: 'found'; count: number } | { kind: 'filled'; fields: AddressFields } | { kind: 'manual' };

export const isContainer = (item: AddressSuggestion) => item.Type !== 'Address';

/**
 * The checkout's address lookup (issue 22; spec sections 5, 8, 9): searches from 4 characters, 300 ms after the last
 * key; opens a container into its addresses; retrieves a picked address. Only the newest request may answer: each new
 * one aborts the one before (axios's AbortController) and a late answer is dropped. Any failure (the server's
 * address_lookup_failed, a 429, no answer) switches the form to manual entry. A screen store.
 */
export class AddressLookupStore {
  items: AddressSuggestion[] = [];
  news: AddressLookupNews = { kind: 'none' };
  manual = false;
  busy = false;
  private seq = 0;
  private abort: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly deps: { api: ApiClient; debounceMs?: number }) {
    makeAutoObservable<AddressLookupStore, 'deps' | 'seq' | 'abort' | 'timer'>(
      this,
      { deps: false, seq: false, abort: false, timer: false },
      { autoBind: true },
    );
  }

  /** Stops what is pending; the next answer to arrive, if any, is dropped. */
  private cancel(): number {
    if (this.timer) clearTimeout(this.timer);
    this.abort?.abort();
    this.timer = null;
    this.abort = null;
    return ++this.seq;
  }

  dispose(): void {
    this.cancel();
  }

  /** Runs one request as the newest; its answer applies only if no newer one started meanwhile. */
  private async latest<T>(request: (signal: AbortSignal) => Promise<T>): Promise<{ value: T } | null> {
    const seq = this.cancel();
    const abort = new AbortController();
    this.abort = abort;
    this.busy = true;
    try {
      const value = await request(abort.signal);
      return this.seq === seq ? { value } : null;
    } catch {
      if (this.seq === seq) this.switchToManual();
      return null;
    } finally {
      if (this.seq === seq) runInAction(() => (this.busy = false));
    }
  }

  private show(found: AddressSuggestion[]) {
    this.items = found;
    this.news = { kind: 'found', count: found.length };
  }

  switchToManual(): void {
    this.cancel();
    this.items = [];
    this.manual = true;
    this.news = { kind: 'manual' };
  }

  /** The typed text changed: search it after the pause, or clear the list when it is too short. */
  typed(text: string): void {
    this.cancel();
    const query = text.trim();
    if (query.length < ADDRESS_SEARCH_MIN) {
      this.busy = false;
      this.items = [];
      this.news = { kind: 'none' };
      return;
    }
    this.timer = setTimeout(() => {
      void this.latest((signal) => findAddresses(this.deps.api, { text: query }, signal)).then(
        (r) => r && runInAction(() => this.show(r.value)),
      );
    }, this.deps.debounceMs ?? ADDRESS_SEARCH_DEBOUNCE_MS);
  }

  /**
   * A suggestion chosen: a container opens into its addresses (null); an address is retrieved and its form fields
   * answered. Null too when a newer request overtook it or the lookup failed (then manual entry).
   */
  async choose(item: AddressSuggestion): Promise<AddressFields | null> {
    if (isContainer(item)) {
      const r = await this.latest((signal) => findAddresses(this.deps.api, { container: item.Id }, signal));
      if (r) runInAction(() => this.show(r.value));
      return null;
    }
    const r = await this.latest((signal) => retrieveAddress(this.deps.api, item.Id, signal));
    if (!r) return null;
    if (!r.value) {
      this.switchToManual();
      return null;
    }
    const fields = addressFields(r.value);
    runInAction(() => {
      this.items = [];
      this.news = { kind: 'filled', fields };
    });
    return fields;
  }
}
