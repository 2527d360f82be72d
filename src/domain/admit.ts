/**
 * Admit details (spec section 5): which 'Full Name' / 'Email Address' fields each selected ticket gets,
 * from the group's meta (admit_names / admit_emails: disabled, optional, required; the event's meta is
 * the fallback) and the ticket rules of the group when the API provides them, and the name split rule.
 */
import { splitName } from './cart-rules';

export type AdmitSetting = 'disabled' | 'optional' | 'required';

export interface AdmitRule {
  ticket_type_id?: string | null;
  party_role?: string | null;
  named: 'yes' | 'no' | 'optional';
  emailed?: boolean;
  min: number;
  /** below 0 means unlimited */
  max: number;
}

/** Spec section 5: an unlimited unnamed rule is shown as 10. */
export const UNLIMITED_RULE_SHOWN_AS = 10;

export interface AdmitSlot {
  /** `${ticketTypeId}:${index}` — stable while the quantity does not shrink below it */
  key: string;
  ticketTypeId: string;
  index: number;
  nameRequired: boolean;
  showEmail: boolean;
  emailRequired: boolean;
}

export function admitSetting(value: unknown, fallback: AdmitSetting = 'disabled'): AdmitSetting {
  return value === 'optional' || value === 'required' || value === 'disabled' ? value : fallback;
}

/** Effective max of a rule: unlimited is shown as 10. */
export function ruleMax(rule: AdmitRule): number {
  return rule.max < 0 ? UNLIMITED_RULE_SHOWN_AS : rule.max;
}

/**
 * The admit fields for `quantity` tickets of one type. Without rules every ticket gets a name field when
 * names are not disabled. With a rule for the type: named 'yes' asks names of the first `min` tickets as
 * required (and offers them up to max), 'optional' offers names up to max, 'no' asks nothing.
 */
export function admitSlots(args: {
  ticketTypeId: string;
  quantity: number;
  names: AdmitSetting;
  emails: AdmitSetting;
  rules?: AdmitRule[];
}): AdmitSlot[] {
  const { ticketTypeId, quantity, names, emails } = args;
  if (quantity <= 0 || names === 'disabled') return [];
  const rule = (args.rules ?? []).find((r) => r.ticket_type_id === ticketTypeId) ?? (args.rules ?? []).find((r) => !r.ticket_type_id);
  if (rule?.named === 'no') return [];
  const offered = rule ? Math.min(quantity, ruleMax(rule)) : quantity;
  const slots: AdmitSlot[] = [];
  for (let index = 0; index < offered; index++) {
    const requiredByRule = rule?.named === 'yes' && index < Math.max(rule.min, 0);
    slots.push({
      key: `${ticketTypeId}:${index}`,
      ticketTypeId,
      index,
      nameRequired: names === 'required' || requiredByRule,
      showEmail: emails !== 'disabled',
      emailRequired: emails === 'required',
    });
  }
  return slots;
}

export type AdmitError = 'nameRequired' | 'emailRequired' | 'emailInvalid';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Problems with one slot's values (trimmed first), empty when it is fine. */
export function admitErrors(slot: AdmitSlot, value: { name?: string; email?: string }): { name?: AdmitError; email?: AdmitError } {
  const name = (value.name ?? '').trim();
  const email = (value.email ?? '').trim();
  const out: { name?: AdmitError; email?: AdmitError } = {};
  if (slot.nameRequired && !name) out.name = 'nameRequired';
  if (slot.showEmail) {
    if (slot.emailRequired && !email) out.email = 'emailRequired';
    else if (email && (email.length > 254 || !EMAIL.test(email))) out.email = 'emailInvalid';
  }
  return out;
}

/**
 * The admit_name of a reservation line (spec section 3: first and last joined by a separator): the name
 * split rule (trimmed, last word is the last name, the rest the first; one word serves as both), joined
 * by a space. Empty input gives undefined (the line carries no name); splitName throws on empty text.
 */
export function admitNameForLine(input: string | undefined): string | undefined {
  if (!input || !input.trim()) return undefined;
  const { first_name, last_name } = splitName(input);
  return `${first_name} ${last_name}`;
}

export function admitEmailForLine(input: string | undefined): string | undefined {
  const email = (input ?? '').trim();
  return email || undefined;
}

export { splitName };

/**
 * Survey answers as sent (spec section 5): empty strings dropped, answers to number-typed questions
 * converted to numbers; a question without a type is a broken spec and throws.
 */
export function cleanSurveyAnswers(
  spec: { properties?: Record<string, Record<string, unknown>> } | null | undefined,
  answers: Record<string, unknown>,
): Record<string, unknown> {
  const properties = spec?.properties ?? {};
  for (const [name, prop] of Object.entries(properties)) {
    if (typeof prop.type !== 'string' && !Array.isArray(prop.type)) throw new Error(`Survey question "${name}" has no type`);
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(answers)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    const type = properties[name]?.type;
    if ((type === 'integer' || type === 'number') && typeof value === 'string') {
      const n = Number(value);
      out[name] = Number.isFinite(n) ? n : value;
    } else {
      out[name] = value;
    }
  }
  return out;
}

/** Required survey questions left unanswered (blank text counts as unanswered); the rjsf form checks the rest. */
export function missingSurveyAnswers(spec: { required?: string[] } | null | undefined, answers: Record<string, unknown>): string[] {
  return (spec?.required ?? []).filter((name) => {
    const value = answers[name];
    return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  });
}

/** The admit fields of every selected type, by its group's meta with the event's meta as the fallback. */
export function selectionAdmitSlots<T extends { id: string }>(
  groups: Array<{ group: { id: string; meta: { admit_names?: unknown; admit_emails?: unknown } | null }; types: T[] }>,
  eventMeta: Record<string, unknown>,
  quantityOf: (typeId: string) => number,
  rules: Array<AdmitRule & { ticket_group_id: string }> = [],
): Array<{ type: T; slots: AdmitSlot[] }> {
  return groups
    .flatMap(({ group, types }) =>
      types.map((type) => ({
        type,
        slots: admitSlots({
          ticketTypeId: type.id,
          quantity: quantityOf(type.id),
          names: admitSetting(group.meta?.admit_names, admitSetting(eventMeta.admit_names)),
          emails: admitSetting(group.meta?.admit_emails, admitSetting(eventMeta.admit_emails)),
          rules: rules.filter((r) => r.ticket_group_id === group.id),
        }),
      })),
    )
    .filter((e) => e.slots.length > 0);
}
