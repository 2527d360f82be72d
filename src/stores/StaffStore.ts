import { makeAutoObservable, runInAction } from 'mobx';
import type { ApiClient } from '../api/http';
import { endStaffPreview, setStaffPreview, staffLogin, staffLogout, staffMe, type StaffAnswer, type StaffPreview } from '../api/staff';
import { toApiError } from '../api/errors';
import { getMembershipRules } from '../api/membership';

export type StaffState = 'idle' | 'loading' | 'ready' | 'busy' | 'none';

/**
 * Support staff (issue 18): the logged-in member of staff and the preview they look through. A change of preview
 * reloads the page (`reload`), so every store starts again from what the API now answers for the visitor previewed.
 */
export class StaffStore {
  state: StaffState = 'idle';
  answer: StaffAnswer | null = null;
  error: string | null = null;
  /** The seller's membership levels, in their order, for a member preview's level (loaded on demand). */
  levels: Array<{ id: string; name: string }> = [];

  constructor(private readonly deps: { api: ApiClient; reload: () => void }) {
    makeAutoObservable<this, 'deps'>(this, { deps: false });
  }

  get preview(): StaffPreview | null {
    return this.answer?.preview ?? null;
  }

  async load(): Promise<void> {
    this.state = 'loading';
    try {
      const answer = await staffMe(this.deps.api);
      runInAction(() => {
        this.answer = answer;
        this.state = 'ready';
      });
    } catch {
      runInAction(() => {
        this.answer = null;
        this.state = 'none';
      });
    }
  }

  async login(email: string, password: string): Promise<boolean> {
    this.state = 'busy';
    this.error = null;
    try {
      const answer = await staffLogin(this.deps.api, email, password);
      runInAction(() => {
        this.answer = answer;
        this.state = 'ready';
      });
      return true;
    } catch (error) {
      const code = toApiError(error)._code;
      runInAction(() => {
        this.error =
          code === 'rate_limited' ? 'errors.rateLimited' : code === 'invalid_credentials' ? 'staff.loginFailed' : 'errors.unexpected';
        this.state = 'none';
      });
      return false;
    }
  }

  /** Starts or changes the preview (null ends it), then reloads the page to show it. */
  /** Reads the seller's membership levels once; without them the preview takes the first level. */
  async loadLevels(): Promise<void> {
    if (this.levels.length > 0) return;
    try {
      const rules = await getMembershipRules(this.deps.api);
      const levels = [...(rules.role?._data ?? [])].sort((a, b) => a._rank - b._rank).map((r) => ({ id: r.id, name: r.name }));
      runInAction(() => (this.levels = levels));
    } catch {
      // The level picker stays empty: previews still show the first level.
    }
  }

  async apply(preview: StaffPreview | null): Promise<void> {
    this.state = 'busy';
    this.error = null;
    try {
      const answer = preview ? await setStaffPreview(this.deps.api, preview) : await endStaffPreview(this.deps.api);
      runInAction(() => (this.answer = answer));
      this.deps.reload();
    } catch {
      runInAction(() => {
        this.error = 'errors.unexpected';
        this.state = 'ready';
      });
    }
  }

  async logout(): Promise<void> {
    this.state = 'busy';
    try {
      await staffLogout(this.deps.api);
    } finally {
      this.deps.reload();
    }
  }
}
