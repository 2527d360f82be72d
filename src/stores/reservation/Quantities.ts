import { makeAutoObservable, observable } from 'mobx';
import type { TicketGroupRow, TicketSelection, TicketTypeRow } from '../../api/events';
import {
  clampToCap,
  decrementTo,
  incrementTo,
  initialQuantity,
  limitsForGroup,
  moneyToMinor,
  parseFlexibleAmount,
  reserveLines,
  type GroupLimits,
  type ReserveLineInput,
} from '../../domain/quantity';
import { buyableType } from '../../domain/reservable-groups';
import { admitEmailForLine, admitNameForLine, selectionAdmitSlots, type AdmitSlot } from '../../domain/admit';
import { citypassCodeProblem, citypassKind, normaliseCitypassCode, type CitypassKind, type CitypassSettings } from '../../domain/citypass';
import { normaliseRules, quantityMessages } from '../../domain/message-rules';
import type { DateChoice } from './DateChoice';
import type { FlowContext } from './FlowContext';
import type { SessionChoice } from './SessionChoice';
import { selectionSubtotal, type Subtotal } from '../../domain/subtotal';

const byRank = <T extends { _rank: number }>(a: T, b: T) => a._rank - b._rank;

/**
 * The tickets (spec section 4): the groups whose steppers show, the count per type within the groups' and the
 * session's limits, flexible prices, admit names and e-mails, survey answers, the messages the selection triggers,
 * and the lines to reserve.
 */
export class Quantities {
  readonly quantities = observable.map<string, number>();
  readonly flexiblePrices = observable.map<string, string>();
  readonly admitValues = observable.map<string, { name?: string; email?: string }>();
  readonly surveyAnswers = observable.map<string, Record<string, unknown>>();
  /** CityPASS codes as typed, by `${ticketTypeId}:${index}` */
  readonly citypassValues = observable.map<string, string>();
  /** A link's ticket group filter (tg): only these groups' steppers show. */
  groupFilter: string[] | null = null;
  private readonly context: FlowContext;
  private readonly dates: DateChoice;
  private readonly sessionChoice: SessionChoice;

  constructor(context: FlowContext, dates: DateChoice, sessionChoice: SessionChoice) {
    this.context = context;
    this.dates = dates;
    this.sessionChoice = sessionChoice;
    makeAutoObservable<Quantities, 'context' | 'dates' | 'sessionChoice'>(
      this,
      {
        context: false,
        dates: false,
        sessionChoice: false,
        quantities: false,
        flexiblePrices: false,
        admitValues: false,
        surveyAnswers: false,
        citypassValues: false,
      },
      { autoBind: true, deep: false },
    );
  }

  /** Whether the steppers show now: flexible admission, quantity-first while choosing, date-first once a session is chosen. */
  get showsSteppers(): boolean {
    const mode = this.dates.effectiveMode;
    if (mode === 'flexible') return true;
    if (mode !== 'date') return false;
    return this.dates.quantityFirst ? this.dates.quantitiesOpen : !!this.sessionChoice.selectedSessionId;
  }
  /** The selection the quantity-first flow asks the calendar and sessions about. */
  get selection(): TicketSelection[] {
    return [...this.quantities].filter(([, n]) => n > 0).map(([ticket_type_id, quantity]) => ({ ticket_type_id, quantity }));
  }

  /** The groups whose steppers show now, with their types. */
  get shownGroups(): Array<{ group: TicketGroupRow; types: TicketTypeRow[] }> {
    const { context, dates, sessionChoice } = this;
    const mode = dates.effectiveMode;
    const chosen = sessionChoice.detail;
    const detail = chosen && chosen.session.id === sessionChoice.selectedSessionId ? chosen : null;
    const source =
      mode === 'date'
        ? (detail ?? (dates.quantityFirst ? { groups: context.datedGroups, types: context.data?.types ?? [] } : null))
        : mode === 'flexible'
          ? { groups: context.flexibleGroups, types: context.data?.types ?? [] }
          : null;
    if (!source) return [];
    return [...source.groups]
      .sort(byRank)
      .filter((g) => !this.groupFilter || this.groupFilter.includes(g.id))
      .map((group) => ({
        group,
        types: source.types.filter((t) => t.ticket_group_id === group.id && buyableType(group, t, context.memberTypeIds)).sort(byRank),
      }))
      .filter((g) => g.types.length > 0);
  }

  /** The running subtotal of the chosen tickets (issue 16), priced as the server prices them: a member's tickets at
   *  the benefits' prices. */
  get subtotal(): Subtotal {
    const member = this.context.deps.member;
    return selectionSubtotal(
      this.shownGroups.flatMap(({ group, types }) =>
        types.map((type) => ({
          type,
          count: this.count(type.id),
          flexibleAmount: this.isFlexiblePrice(type) ? this.flexibleAmount(type) : null,
          memberPrice: member ? member.memberPrice(type, group) : null,
        })),
      ),
    );
  }

  count(typeId: string): number {
    return this.quantities.get(typeId) ?? 0;
  }
  groupCount(groupId: string): number {
    return this.shownGroups.find((g) => g.group.id === groupId)?.types.reduce((s, t) => s + this.count(t.id), 0) ?? 0;
  }
  get ticketCount(): number {
    return this.shownGroups.reduce((sum, g) => sum + g.types.reduce((s, t) => s + this.count(t.id), 0), 0);
  }

  /** Stepper limits of a group (the session's capacity shared with the other counted groups). */
  limitsOf(group: TicketGroupRow): GroupLimits {
    const typeCount = this.shownGroups.find((g) => g.group.id === group.id)?.types.length ?? 0;
    const detail = this.sessionChoice.detail;
    const session =
      this.dates.effectiveMode === 'date' && detail
        ? {
            available: detail.session.availableCapacity,
            pickedInOtherGroups: this.shownGroups
              .filter((g) => g.group.id !== group.id && !g.group.exclude_from_event_capacity)
              .reduce((s, g) => s + this.groupCount(g.group.id), 0),
          }
        : null;
    return limitsForGroup(group, typeCount, session);
  }

  canIncrement(group: TicketGroupRow, typeId: string): boolean {
    return incrementTo(this.limitsOf(group), this.count(typeId), this.groupCount(group.id)) !== null && this.memberRoom(typeId);
  }

  /** Spec section 5: member tickets within the membership's benefits, its shared wildcard pool and its per-event limit,
   *  the member tickets the cart holds for the chosen session counted in (MembershipStore.roomFor; the member's past
   *  orders are the server's to count). */
  private memberRoom(typeId: string): boolean {
    const member = this.context.deps.member;
    if (!member) return true;
    const room = member.roomFor(this.sessionChoice.selectedSessionId ?? null, Object.fromEntries(this.quantities));
    return !(typeId in room) || room[typeId] > 0;
  }
  canDecrement(group: TicketGroupRow, typeId: string): boolean {
    return decrementTo(this.limitsOf(group), this.count(typeId)) !== null;
  }
  increment(group: TicketGroupRow, typeId: string): void {
    const next = incrementTo(this.limitsOf(group), this.count(typeId), this.groupCount(group.id));
    if (next !== null && this.memberRoom(typeId)) this.quantities.set(typeId, next);
  }
  decrement(group: TicketGroupRow, typeId: string): void {
    const next = decrementTo(this.limitsOf(group), this.count(typeId));
    if (next !== null) this.quantities.set(typeId, next);
  }

  /** Back to the starting counts of the groups shown now: a group with one type starts at its minimum. */
  reset(): void {
    this.quantities.clear();
    this.context.attempted = false;
    for (const { group, types } of this.shownGroups) {
      const limits = this.limitsOf(group);
      if (types.length === 1) this.quantities.set(types[0].id, clampToCap(limits, initialQuantity(limits)));
    }
    this.prefillToMatch();
  }

  /**
   * An add-on whose tickets must match its anchor's (upsell chains, issue 16) starts at the anchor's tickets: type by
   * type where the names agree (2 Adult, 1 Child), the rest on the first type.
   */
  private prefillToMatch(): void {
    const start = this.dates.effectiveMode === 'date' ? (this.sessionChoice.selectedSession?.start_datetime ?? null) : null;
    const [anchor] = this.context.visit.matchFor(start);
    const shown = this.shownGroups.flatMap(({ types }) => types);
    if (!anchor || shown.length === 0) return;
    this.quantities.clear();
    let left = anchor.count;
    for (const { name, count } of anchor.types) {
      const same = shown.find((t) => t.name.toLowerCase() === name.toLowerCase());
      if (!same) continue;
      this.quantities.set(same.id, this.count(same.id) + count);
      left -= count;
    }
    if (left > 0) this.quantities.set(shown[0].id, this.count(shown[0].id) + left);
  }

  isFlexiblePrice(type: TicketTypeRow): boolean {
    return type.currency_amount_min !== null && type.currency_amount_max !== null;
  }
  priceText(type: TicketTypeRow): string {
    return this.flexiblePrices.get(type.id) ?? type.currency_amount;
  }
  /** The chosen amount in minor units, or null when it is outside min/max. */
  flexibleAmount(type: TicketTypeRow): number | null {
    return parseFlexibleAmount(
      this.priceText(type),
      moneyToMinor(type.currency_amount_min) ?? 0,
      moneyToMinor(type.currency_amount_max) ?? 0,
    );
  }
  setFlexiblePrice(typeId: string, text: string): void {
    this.flexiblePrices.set(typeId, text);
  }

  /** Admit fields of the selected tickets, grouped by type (group meta first, the event's meta as fallback). */
  get admitSlots(): Array<{ type: TicketTypeRow; slots: AdmitSlot[] }> {
    const { event, data } = this.context;
    return selectionAdmitSlots(this.shownGroups, event?.meta ?? {}, (id) => this.count(id), data?.ticketRules ?? []);
  }
  setAdmit(key: string, field: 'name' | 'email', value: string): void {
    this.admitValues.set(key, { ...this.admitValues.get(key), [field]: value });
  }

  /** The event's CityPASS code forms (config.web.citypass). */
  get citypassSettings(): CitypassSettings | null {
    return (this.context.event?.config?.web?.citypass as CitypassSettings | undefined) ?? null;
  }
  /** One code field per chosen ticket of a CityPASS group, by type, with the kind of code it takes. */
  get citypassSlots(): Array<{ type: TicketTypeRow; kind: CitypassKind; keys: string[] }> {
    const keywords = this.citypassSettings?.child_keywords;
    return this.shownGroups
      .filter(({ group }) => group.handler === 'citypass')
      .flatMap(({ types }) => types)
      .filter((type) => this.count(type.id) > 0)
      .map((type) => ({
        type,
        kind: citypassKind(type.name, keywords),
        keys: Array.from({ length: this.count(type.id) }, (_, i) => `${type.id}:${i}`),
      }));
  }
  setCitypass(key: string, value: string): void {
    this.citypassValues.set(key, value);
  }
  /** What is wrong with one code field ('missing', 'format'), or null. */
  citypassProblem(key: string, kind: CitypassKind): 'missing' | 'format' | null {
    return citypassCodeProblem(this.citypassValues.get(key), kind, this.citypassSettings);
  }

  /** Groups with tickets chosen whose survey has questions. */
  get surveyGroups(): TicketGroupRow[] {
    return this.shownGroups
      .map((g) => g.group)
      .filter((g) => this.groupCount(g.id) > 0 && Object.keys(g.additional_info_spec?.properties ?? {}).length > 0);
  }
  setSurveyAnswers(groupId: string, answers: Record<string, unknown>): void {
    this.surveyAnswers.set(groupId, answers);
  }

  /** The message rules' texts for what is selected: the chosen date's and session's messages, quantity messages. */
  get messages(): string[] {
    const rules = normaliseRules(this.context.data?.messageRules ?? []);
    const lines = this.shownGroups.flatMap(({ group, types }) =>
      types.map((t) => ({
        ticket_group_id: group.id,
        ticket_group_name: group.name,
        ticket_type_id: t.id,
        ticket_type_name: t.name,
        quantity: this.count(t.id),
      })),
    );
    const day = this.dates.shownCalendar.find((d) => d.date === this.dates.selectedDate);
    const dateTexts = this.dates.effectiveMode === 'date' ? (day?.tooltip ?? []) : [];
    return [...new Set([...dateTexts, ...(this.sessionChoice.selectedSession?.messages ?? []), ...quantityMessages(rules, lines)])];
  }

  /** The cart lines of the selection: the session (dated admission), counts, flexible amounts, admit details. */
  buildLines(): ReserveLineInput[] {
    const sessionId = this.dates.effectiveMode === 'date' ? this.sessionChoice.selectedSessionId : null;
    const slotsByType = new Map(this.admitSlots.map((e) => [e.type.id, e.slots]));
    const codesByType = new Map(
      this.citypassSlots.map((e) => [e.type.id, e.keys.map((key) => normaliseCitypassCode(this.citypassValues.get(key)))]),
    );
    return this.shownGroups.flatMap(({ types }) =>
      types.flatMap((type) => {
        const amount = this.isFlexiblePrice(type) ? this.flexibleAmount(type) : null;
        return reserveLines({
          sessionId,
          ticketTypeId: type.id,
          quantity: this.count(type.id),
          faceValue: amount === null ? undefined : (amount / 100).toFixed(2),
          admit: (slotsByType.get(type.id) ?? []).map((slot) => {
            const value = this.admitValues.get(slot.key) ?? {};
            return { admit_name: admitNameForLine(value.name), admit_email: slot.showEmail ? admitEmailForLine(value.email) : undefined };
          }),
          citypass: codesByType.get(type.id),
        });
      }),
    );
  }
}
