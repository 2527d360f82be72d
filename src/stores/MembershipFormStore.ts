import { makeAutoObservable, runInAction } from 'mobx';
import type { MembershipRow, RoleRow } from '../contract/account';
import type { TicketGroupRow, TicketTypeRow } from '../contract/catalogue';
import { cleanSurveyAnswers, missingSurveyAnswers } from '../domain/admit';
import type { MembershipRulesAnswer } from '../contract/membership';
import type { GifteeBody } from '../contract/membership';
import { toApiError } from '../api/errors';
import { longDateLabel, venueDate } from '../domain/dates';
import type { MemberSettings } from '../domain/membership';
import {
  hasRequiredMember,
  latestMembership,
  levelsOf,
  maxShown,
  memberNameError,
  membershipLines,
  prefillFromMembers,
  renewFrom,
  rulesOf,
  slotKey,
  startingCounts,
  type Level,
  type LevelRule,
  type MemberLine,
} from '../domain/membership-form';
import { reserveErrorMessage } from '../domain/reservation-errors';
import { saveMembershipIntent, type IntentStorage } from './membership-intent';

/** The membership calls the form makes (src/api/membership.ts bound to the client); tests pass fakes. */
export interface MembershipApi {
  getRules(): Promise<MembershipRulesAnswer>;
  postGiftee(body: Omit<GifteeBody, '_seller'>): Promise<string>;
}

export interface MembershipFormStoreDeps {
  api: MembershipApi;
  cart: {
    reserve(lines: MemberLine[], additionalInfo?: Record<string, unknown>): Promise<void>;
    readonly cartId: string | null;
    readonly isEmpty: boolean;
    readonly items: ReadonlyArray<{ isMembershipEvent: boolean }>;
  };
  session: {
    readonly isLoggedIn: boolean;
    readonly memberships: MembershipRow[];
    readonly user: { email?: string | null } | null;
  };
  /** the membership group's ticket types: the levels on sale */
  types: TicketTypeRow[];
  /** the membership group: its survey (additional_info_spec), asked before the auto-renew question (spec section 2) */
  group?: Pick<TicketGroupRow, 'id' | 'additional_info_spec'> | null;
  /** the event route's action: 'renew', 'gift' or none */
  action?: string;
  settings: MemberSettings;
  timezone: string;
  now?: () => Date;
  intents?: IntentStorage | null;
}

export type MembershipMode = 'buy' | 'renew' | 'gift';
export interface FormNotice {
  key: string;
  params?: Record<string, string | number>;
}
export interface Recipient {
  first_name: string;
  last_name: string;
  email: string;
}
type RecipientError = 'required' | 'emailInvalid' | 'tooLong';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The buy-membership form on the membership event's detail (issue 12; spec sections 2, 4, 5): previous membership,
 * level picker, member details per the level's rules, recipient when gifting, auto-renew; its submit checks the form,
 * records the giftee when gifting, reserves the level's lines and keeps the auto-renew and giftee choices for the
 * checkout (membership-intent.ts). A per-screen store (useScreenStore).
 */
export class MembershipFormStore {
  state: 'loading' | 'ready' | 'error' = 'loading';
  roles: RoleRow[] = [];
  levels: Level[] = [];
  selectedTypeId: string | null = null;
  counts: Record<string, number> = {};
  names: Record<string, string> = {};
  autoRenew = false;
  recipient: Recipient = { first_name: '', last_name: '', email: '' };
  /** The survey's answers (the membership group's questions), sent keyed by the group's id as additional info. */
  surveyAnswers: Record<string, unknown> = {};
  attempted = false;
  submitting = false;
  notice: FormNotice | null = null;
  /** a guest giver with an empty cart is asked to log in or go on as a guest (spec section 4) */
  dialog: 'login-or-guest' | null = null;
  private guestChosen = false;
  private live = true;
  private readonly deps: MembershipFormStoreDeps;

  constructor(deps: MembershipFormStoreDeps) {
    this.deps = deps;
    makeAutoObservable<MembershipFormStore, 'deps' | 'live' | 'guestChosen'>(
      this,
      { deps: false, live: false, guestChosen: false },
      { autoBind: true },
    );
  }

  start(): void {
    this.live = true;
  }
  dispose(): void {
    this.live = false;
  }

  private now(): Date {
    return this.deps.now ? this.deps.now() : new Date();
  }

  /** Reads the levels' rules; the only level is chosen at once; a renewal is prefilled from the latest membership. */
  async load(): Promise<void> {
    this.state = 'loading';
    try {
      const answer = await this.deps.api.getRules();
      runInAction(() => {
        if (!this.live) return;
        this.roles = answer.role?._data ?? [];
        this.levels = levelsOf(this.deps.types, this.roles, answer.membership_rule._data);
        this.state = 'ready';
        this.prefill();
      });
    } catch {
      runInAction(() => {
        this.state = 'error';
      });
    }
  }

  private prefill(): void {
    const previous = this.previous;
    const shown = this.shownLevels;
    if (this.mode === 'renew' && previous) {
      const level = shown.find((l) => l.roleId === previous.role_id);
      if (level) {
        this.selectedTypeId = level.typeId;
        const { counts, names } = prefillFromMembers(level, previous.members ?? []);
        this.counts = counts;
        this.names = names;
        return;
      }
    }
    if (shown.length === 1) this.selectLevel(shown[0].typeId);
  }

  // ---- what the form shows

  /** Gift (action gift); renew (action renew, or a member already); else buy. */
  get mode(): MembershipMode {
    if (this.deps.action === 'gift') return 'gift';
    if (this.deps.action === 'renew' || (this.deps.session.isLoggedIn && this.deps.session.memberships.length > 0)) return 'renew';
    return 'buy';
  }

  /** The logged-in member's latest membership (previous membership info, renewal prefill). */
  get previous(): MembershipRow | null {
    return this.deps.session.isLoggedIn ? latestMembership(this.deps.session.memberships) : null;
  }

  get previousLevelName(): string | null {
    const p = this.previous;
    return p ? (this.roles.find((r) => r.id === p.role_id)?.name ?? null) : null;
  }

  get previousExpiry(): string | null {
    const p = this.previous;
    return p ? longDateLabel(venueDate(p.valid_to, this.deps.timezone)) : null;
  }

  /** Spec section 5: a renewal only within the renewal period before the end; else the date it opens. */
  get renewFromLabel(): string | null {
    const p = this.previous;
    if (this.mode !== 'renew' || !p) return null;
    const opens = renewFrom(p.valid_to, this.deps.settings.renewalPeriodDays, this.now());
    return opens ? longDateLabel(venueDate(opens, this.deps.timezone)) : null;
  }

  /** Gifting offers the giftable levels only. */
  get shownLevels(): Level[] {
    return this.mode === 'gift' ? this.levels.filter((l) => l.giftable) : this.levels;
  }

  get selectedLevel(): Level | null {
    return this.shownLevels.find((l) => l.typeId === this.selectedTypeId) ?? null;
  }

  get rules(): LevelRule[] {
    return this.selectedLevel ? rulesOf(this.selectedLevel) : [];
  }

  /** The membership group's survey, when it has questions (spec section 2: survey before the auto-renew question). */
  get survey(): { groupId: string; spec: NonNullable<TicketGroupRow['additional_info_spec']> } | null {
    const group = this.deps.group;
    const spec = group?.additional_info_spec;
    return group && spec && Object.keys(spec.properties ?? {}).length > 0 ? { groupId: group.id, spec } : null;
  }

  setSurveyAnswers(answers: Record<string, unknown>): void {
    this.surveyAnswers = answers;
    this.clearSolvedNotice();
  }

  get asksAutoRenew(): boolean {
    return this.deps.settings.askToAutorenew && this.mode !== 'gift';
  }

  count(partyRole: string): number {
    return this.counts[partyRole] ?? 0;
  }

  canIncrement(rule: LevelRule): boolean {
    return this.count(rule.partyRole) < maxShown(rule);
  }

  canDecrement(rule: LevelRule): boolean {
    return this.count(rule.partyRole) > rule.min;
  }

  nameError(rule: LevelRule, index: number): string | null {
    if (!this.attempted) return null;
    const error = memberNameError(rule, this.names[slotKey(rule.partyRole, index)]);
    return error ? `membership.form.errors.${error}` : null;
  }

  recipientError(field: keyof Recipient): string | null {
    if (!this.attempted || this.mode !== 'gift') return null;
    const error = this.recipientErrors[field];
    return error ? `membership.form.errors.${error}` : null;
  }

  private get recipientErrors(): Partial<Record<keyof Recipient, RecipientError>> {
    const out: Partial<Record<keyof Recipient, RecipientError>> = {};
    for (const field of ['first_name', 'last_name', 'email'] as const) {
      const value = this.recipient[field].trim();
      if (!value) out[field] = 'required';
      else if (value.length > (field === 'email' ? 254 : 50)) out[field] = 'tooLong';
      else if (field === 'email' && !EMAIL.test(value)) out[field] = 'emailInvalid';
    }
    return out;
  }

  /** Spec section 5: gifting to yourself is refused ('You can not gift membership to yourself'). */
  get giftsToSelf(): boolean {
    const mine = this.deps.session.user?.email?.trim().toLowerCase();
    return this.mode === 'gift' && Boolean(mine) && mine === this.recipient.email.trim().toLowerCase();
  }

  // ---- actions

  /** A level chosen: its members start from its rules, and auto-renew goes back to no (spec section 4). */
  selectLevel(typeId: string): void {
    const level = this.shownLevels.find((l) => l.typeId === typeId);
    if (!level) return;
    this.selectedTypeId = typeId;
    this.autoRenew = false;
    const previous = this.previous;
    if (this.mode === 'renew' && previous) {
      const { counts, names } = prefillFromMembers(level, previous.members ?? []);
      this.counts = counts;
      this.names = names;
    } else {
      this.counts = startingCounts(level);
      this.names = {};
    }
    if (this.notice?.key === 'membership.form.selectLevel') this.notice = null;
  }

  increment(rule: LevelRule): void {
    if (this.canIncrement(rule)) this.counts = { ...this.counts, [rule.partyRole]: this.count(rule.partyRole) + 1 };
    this.clearSolvedNotice();
  }

  decrement(rule: LevelRule): void {
    if (!this.canDecrement(rule)) return;
    const n = this.count(rule.partyRole) - 1;
    const names = { ...this.names };
    delete names[slotKey(rule.partyRole, n)];
    this.counts = { ...this.counts, [rule.partyRole]: n };
    this.names = names;
  }

  setName(key: string, value: string): void {
    this.names = { ...this.names, [key]: value };
    this.clearSolvedNotice();
  }

  /** A form notice goes once what it said is fixed. */
  private clearSolvedNotice(): void {
    if (this.notice && this.notice.key.startsWith('membership.form.') && !this.blockingProblem) this.notice = null;
  }

  setAutoRenew(value: boolean): void {
    this.autoRenew = value;
  }

  setRecipient(field: keyof Recipient, value: string): void {
    this.recipient = { ...this.recipient, [field]: value };
    this.clearSolvedNotice();
  }

  /** The login-or-guest dialog: going on as a guest submits again. */
  continueAsGuest(): Promise<boolean> {
    this.guestChosen = true;
    this.dialog = null;
    return this.submit();
  }

  closeDialog(): void {
    this.dialog = null;
  }

  /** What stops a submit before anything is sent. */
  get blockingProblem(): FormNotice | null {
    const level = this.selectedLevel;
    if (!level) return { key: 'membership.form.selectLevel' };
    if (this.renewFromLabel) return { key: 'membership.errors.renewalNotOpen', params: { date: this.renewFromLabel } };
    const { cart } = this.deps;
    if (cart.items.some((i) => i.isMembershipEvent)) return { key: 'membership.form.cartHasMembership' };
    if (this.mode === 'gift' && !cart.isEmpty) return { key: 'membership.form.cartNotEmptyForGift' };
    if (!hasRequiredMember(level, this.counts)) return { key: 'membership.form.memberRequired' };
    const badName = rulesOf(level).some((rule) =>
      Array.from({ length: this.count(rule.partyRole) }, (_, i) => memberNameError(rule, this.names[slotKey(rule.partyRole, i)])).some(
        Boolean,
      ),
    );
    if (this.mode === 'gift' && this.giftsToSelf) return { key: 'membership.errors.giftToSelfForm' };
    if (badName || (this.mode === 'gift' && Object.keys(this.recipientErrors).length > 0)) return { key: 'membership.form.fixFields' };
    // Required questions are checked here too, so a survey form still loading cannot be skipped.
    const survey = this.survey;
    if (survey && missingSurveyAnswers(survey.spec, this.surveyAnswers).length > 0) return { key: 'membership.form.fixFields' };
    return null;
  }

  /** Checks, records the giftee (gift), reserves the level's lines and keeps the checkout's choices. True when reserved. */
  async submit(surveyValid = true): Promise<boolean> {
    if (this.submitting) return false;
    this.attempted = true;
    const problem = this.blockingProblem ?? (surveyValid ? null : { key: 'membership.form.fixFields' });
    if (problem) {
      this.notice = problem;
      return false;
    }
    const { cart, session } = this.deps;
    if (this.mode === 'gift' && !session.isLoggedIn && cart.isEmpty && !this.guestChosen) {
      this.dialog = 'login-or-guest';
      return false;
    }
    const level = this.selectedLevel!;
    this.submitting = true;
    this.notice = null;
    try {
      let gifteeIdentityId: string | undefined;
      if (this.mode === 'gift') {
        const r = this.recipient;
        gifteeIdentityId = await this.deps.api.postGiftee({
          first_name: r.first_name.trim(),
          last_name: r.last_name.trim(),
          email: r.email.trim(),
        });
      }
      const survey = this.survey;
      await cart.reserve(
        membershipLines(level, this.counts, this.names),
        survey ? { [survey.groupId]: cleanSurveyAnswers(survey.spec, this.surveyAnswers) } : undefined,
      );
      if (cart.cartId) {
        saveMembershipIntent(this.deps.intents ?? null, cart.cartId, {
          ...(this.asksAutoRenew && this.autoRenew ? { autoRenew: true } : {}),
          ...(gifteeIdentityId ? { gifteeIdentityId } : {}),
        });
      }
      return true;
    } catch (error) {
      const e = toApiError(error);
      runInAction(() => {
        if (e._code === 'renewal_not_open' && typeof e._extra?.renew_from === 'string') {
          this.notice = {
            key: 'membership.errors.renewalNotOpen',
            params: { date: longDateLabel(venueDate(e._extra.renew_from, this.deps.timezone)) },
          };
        } else if (e._code === 'gift_to_self') this.notice = { key: 'membership.errors.giftToSelfForm' };
        else this.notice = reserveErrorMessage(e);
      });
      return false;
    } finally {
      runInAction(() => {
        this.submitting = false;
      });
    }
  }
}
