import type { RoleRow } from '../contract/account';
import type { TicketTypeRow } from '../contract/catalogue';
import type { MembershipRuleRow } from '../contract/membership';
import { admitNameForLine } from './admit';
import { renewalOpensAt } from './membership';

/**
 * The buy-membership form's rules (issue 12; spec sections 2, 4, 5): the levels on sale with their member rules,
 * the member sections built from those rules (named yes / optional / no, between min and max; unlimited shown as 10),
 * the checks before a reserve, the cart lines (one per member, each with its party role, no session) and the renewal
 * window of the latest membership.
 */

/** Unlimited (max below 0) is offered as this many (spec section 5). */
export const UNLIMITED_MEMBERS = 10;
/** Spec section 9: a name is at most 50 characters. */
export const MEMBER_NAME_MAX = 50;

const NAMED_ORDER = { yes: 0, optional: 1, no: 2 } as const;

export interface LevelRule {
  partyRole: string;
  named: 'yes' | 'no' | 'optional';
  min: number;
  max: number;
}

export interface Level {
  typeId: string;
  roleId: string | null;
  name: string;
  summary: string | null;
  /** the level's price, as the API writes money ('75.00') */
  price: string;
  giftable: boolean;
  rank: number;
  rules: LevelRule[];
}

/** The levels of the membership group's types, joined with their roles and rules by ticket type. */
export function levelsOf(types: TicketTypeRow[], roles: RoleRow[], rules: MembershipRuleRow[]): Level[] {
  return types
    .map((type) => {
      const role = roles.find((r) => r.ticket_type_id === type.id) ?? null;
      const own = role ? rules.filter((r) => r.role_id === role.id) : [];
      return {
        typeId: type.id,
        roleId: role?.id ?? null,
        name: type.name,
        summary: type.summary,
        price: type.currency_amount,
        giftable: role?.giftable ?? false,
        rank: type._rank,
        // Named members first (yes, optional), then the counted ones.
        rules: own
          .map((r) => ({ partyRole: r.party_role, named: r.named, min: Math.max(0, r.min), max: r.max }))
          .sort((a, b) => NAMED_ORDER[a.named] - NAMED_ORDER[b.named]),
      };
    })
    .sort((a, b) => a.rank - b.rank);
}

export const maxShown = (rule: LevelRule) => (rule.max < 0 ? UNLIMITED_MEMBERS : Math.max(rule.min, rule.max));
/** Spec section 5: the stepper is hidden when min equals max. */
export const showsStepper = (rule: LevelRule) => maxShown(rule) !== rule.min;
/** A rule with no member left to count (a level without rules is one unnamed member). */
export const rulesOf = (level: Level): LevelRule[] =>
  level.rules.length ? level.rules : [{ partyRole: 'member', named: 'no', min: 1, max: 1 }];

export type MemberError = 'nameRequired' | 'nameTooLong';

/** The key of one member's name field. */
export const slotKey = (partyRole: string, index: number) => `${partyRole}:${index}`;

export function memberNameError(rule: LevelRule, value: string | undefined): MemberError | null {
  const name = (value ?? '').trim();
  if (rule.named === 'no') return null;
  if (name.length > MEMBER_NAME_MAX) return 'nameTooLong';
  if (rule.named === 'yes' && !name) return 'nameRequired';
  return null;
}

/** Spec section 5: 'At least one member is required to purchase a membership.' (a named member, when the level names any). */
export function hasRequiredMember(level: Level, counts: Record<string, number>): boolean {
  const rules = rulesOf(level);
  const named = rules.filter((r) => r.named !== 'no');
  const pool = named.length ? named : rules;
  return pool.some((r) => (counts[r.partyRole] ?? 0) > 0);
}

export interface MemberLine {
  event_session_id: null;
  ticket_type_id: string;
  party_role: string;
  admit_name?: string;
}

/** One cart line per member of the level (issue 12, the wire): the party role, and the name for named roles. */
export function membershipLines(level: Level, counts: Record<string, number>, names: Record<string, string>): MemberLine[] {
  const lines: MemberLine[] = [];
  for (const rule of rulesOf(level)) {
    for (let i = 0; i < (counts[rule.partyRole] ?? 0); i++) {
      const line: MemberLine = { event_session_id: null, ticket_type_id: level.typeId, party_role: rule.partyRole };
      const name = rule.named === 'no' ? undefined : admitNameForLine(names[slotKey(rule.partyRole, i)]);
      if (name) line.admit_name = name;
      lines.push(line);
    }
  }
  return lines;
}

/** The starting counts of a level: each rule's minimum (at least one for a level's only named rule). */
export function startingCounts(level: Level): Record<string, number> {
  const counts: Record<string, number> = {};
  const rules = rulesOf(level);
  for (const r of rules) counts[r.partyRole] = r.min;
  const named = rules.filter((r) => r.named !== 'no');
  if (named.length && !hasRequiredMember(level, counts)) counts[named[0].partyRole] = Math.min(1, maxShown(named[0]));
  return counts;
}

/** A previous membership's members as the form's counts and names (renewal prefill), kept within the level's rules. */
export function prefillFromMembers(
  level: Level,
  members: Array<{ party_role: string; name: string | null }>,
): { counts: Record<string, number>; names: Record<string, string> } {
  const counts = startingCounts(level);
  const names: Record<string, string> = {};
  for (const rule of rulesOf(level)) {
    const mine = members.filter((m) => m.party_role === rule.partyRole);
    if (!mine.length) continue;
    counts[rule.partyRole] = Math.min(maxShown(rule), Math.max(rule.min, mine.length));
    mine.slice(0, counts[rule.partyRole]).forEach((m, i) => {
      if (m.name && rule.named !== 'no') names[slotKey(rule.partyRole, i)] = m.name;
    });
  }
  return { counts, names };
}

/** Spec section 5: renewal is open from `renewal_period_days` before the term ends; null when it is open now. */
export function renewFrom(validTo: string | Date, periodDays: number, now: Date): Date | null {
  const opens = renewalOpensAt(new Date(validTo), periodDays);
  return now.getTime() < opens.getTime() ? opens : null;
}

/** The latest term of a member's memberships (by its end). */
export function latestMembership<T extends { valid_to: string }>(memberships: T[]): T | null {
  return memberships.reduce<T | null>((best, m) => (!best || new Date(m.valid_to) > new Date(best.valid_to) ? m : best), null);
}
