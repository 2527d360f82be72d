/**
 * Message rules (spec section 3): a rule has triggers and actions, applied in _rank order.
 * Triggers: dateOrSession {dateInterval {start,end} (YYYY-MM-DD, both included), weekdays (0 = Sunday or
 * names), time_of_day {start,end} ('HH:mm', end exclusive)}; quantity {ticket_group_ids, ticket_group_names,
 * ticket_type_ids, ticket_type_names, min, max}. Actions: date_annotation, date_message, session_annotation,
 * session_message, quantity_message, each a text. Both the object form ({dateOrSession: {...}}) and the
 * list form ([{type: 'dateOrSession', ...}]) are read, so catalogues may use either.
 */
import { weekdayOf } from './dates';

export type ActionKind = 'date_annotation' | 'date_message' | 'session_annotation' | 'session_message' | 'quantity_message';
export interface DateOrSessionTrigger {
  dateInterval?: { start?: string; end?: string; from?: string; to?: string };
  weekdays?: Array<number | string>;
  time_of_day?: { start?: string; end?: string; from?: string; to?: string };
}
export interface QuantityTrigger {
  ticket_group_ids?: string[];
  ticket_group_names?: string[];
  ticket_type_ids?: string[];
  ticket_type_names?: string[];
  min?: number;
  max?: number;
}
export interface MessageRule {
  id?: string;
  _rank?: number;
  triggers: unknown;
  actions: unknown;
}
export interface NormalRule {
  id?: string;
  _rank: number;
  dateOrSession?: DateOrSessionTrigger;
  quantity?: QuantityTrigger;
  actions: Array<{ kind: ActionKind; text: string }>;
}

const ACTION_KINDS: ActionKind[] = ['date_annotation', 'date_message', 'session_annotation', 'session_message', 'quantity_message'];
const WEEKDAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

function weekdayNumber(w: number | string): number {
  if (typeof w === 'number') return w;
  return WEEKDAY_NAMES.indexOf(w.slice(0, 3).toLowerCase());
}

function readActions(actions: unknown): NormalRule['actions'] {
  const out: NormalRule['actions'] = [];
  const push = (kind: unknown, text: unknown) => {
    if (ACTION_KINDS.includes(kind as ActionKind) && typeof text === 'string' && text.trim()) out.push({ kind: kind as ActionKind, text });
  };
  if (Array.isArray(actions)) {
    for (const a of actions) if (isObject(a)) push(a.type ?? a.action, a.text ?? a.message ?? a.value);
  } else if (isObject(actions)) {
    for (const [kind, value] of Object.entries(actions)) push(kind, isObject(value) ? (value.text ?? value.message) : value);
  }
  return out;
}

/** Reads either stored form into one shape, sorted by _rank. */
export function normaliseRules(rules: MessageRule[]): NormalRule[] {
  const out = rules.map((r): NormalRule => {
    const rule: NormalRule = { id: r.id, _rank: r._rank ?? 0, actions: readActions(r.actions) };
    const triggers = r.triggers;
    if (Array.isArray(triggers)) {
      for (const t of triggers) {
        if (!isObject(t)) continue;
        if (t.type === 'dateOrSession') rule.dateOrSession = t as DateOrSessionTrigger;
        if (t.type === 'quantity') rule.quantity = t as QuantityTrigger;
      }
    } else if (isObject(triggers)) {
      if (isObject(triggers.dateOrSession)) rule.dateOrSession = triggers.dateOrSession;
      if (isObject(triggers.quantity)) rule.quantity = triggers.quantity;
    }
    return rule;
  });
  return out.sort((a, b) => a._rank - b._rank);
}

/** Whether a date (and, for sessions, a venue-local time 'HH:mm') meets a dateOrSession trigger. */
export function matchesDateOrSession(trigger: DateOrSessionTrigger | undefined, date: string, time?: string): boolean {
  if (!trigger) return true;
  const interval = trigger.dateInterval;
  if (interval) {
    const start = interval.start ?? interval.from;
    const end = interval.end ?? interval.to;
    if (start && date < start) return false;
    if (end && date > end) return false;
  }
  if (trigger.weekdays?.length && !trigger.weekdays.map(weekdayNumber).includes(weekdayOf(date))) return false;
  const tod = trigger.time_of_day;
  if (tod && time !== undefined) {
    const start = tod.start ?? tod.from;
    const end = tod.end ?? tod.to;
    if (start && time < start) return false;
    if (end && time >= end) return false;
  }
  return true;
}

function texts(rules: NormalRule[], kind: ActionKind, match: (r: NormalRule) => boolean): string[] {
  const out: string[] = [];
  for (const r of rules) {
    if (!match(r)) continue;
    for (const a of r.actions) if (a.kind === kind) out.push(a.text);
  }
  return out;
}

/** Calendar day texts: annotations shown on the day, tooltip messages. Quantity-only rules do not apply. */
export function dateMessages(rules: NormalRule[], date: string): { annotations: string[]; tooltip: string[] } {
  const match = (r: NormalRule) => !r.quantity && matchesDateOrSession(r.dateOrSession, date);
  return { annotations: texts(rules, 'date_annotation', match), tooltip: texts(rules, 'date_message', match) };
}

/** Session texts: annotations shown on the session button, messages shown when it is chosen. */
export function sessionMessages(rules: NormalRule[], date: string, time: string): { annotations: string[]; messages: string[] } {
  const match = (r: NormalRule) => !r.quantity && matchesDateOrSession(r.dateOrSession, date, time);
  return { annotations: texts(rules, 'session_annotation', match), messages: texts(rules, 'session_message', match) };
}

export interface SelectedLine {
  ticket_group_id: string;
  ticket_group_name?: string;
  ticket_type_id: string;
  ticket_type_name?: string;
  quantity: number;
}

/** Quantity messages for a selection: the rule's matching lines' total must lie within min..max. */
export function quantityMessages(rules: NormalRule[], lines: SelectedLine[]): string[] {
  return texts(rules, 'quantity_message', (r) => {
    const q = r.quantity;
    if (!q) return false;
    const filtered = [q.ticket_group_ids, q.ticket_group_names, q.ticket_type_ids, q.ticket_type_names].some((l) => l?.length);
    const total = lines
      .filter(
        (l) =>
          !filtered ||
          q.ticket_group_ids?.includes(l.ticket_group_id) ||
          q.ticket_type_ids?.includes(l.ticket_type_id) ||
          (l.ticket_group_name !== undefined && q.ticket_group_names?.includes(l.ticket_group_name)) ||
          (l.ticket_type_name !== undefined && q.ticket_type_names?.includes(l.ticket_type_name)),
      )
      .reduce((sum, l) => sum + l.quantity, 0);
    if (total <= 0) return false;
    if (q.min !== undefined && total < q.min) return false;
    if (q.max !== undefined && q.max >= 0 && total > q.max) return false;
    return true;
  });
}
