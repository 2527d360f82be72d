import { sql, type Insertable, type Transaction } from 'kysely';
import { LIVE_TICKET_STATES, type Database, type Membership, type Seller, type TicketGroup, type TicketTable } from '../../db/types';
import { DomainError } from '../errors';
import { outsideFees } from '../../../src/domain/cart-rules';
import { memberSettings, renewalOpensAt, type Benefit } from '../../../src/domain/membership';

type Trx = Transaction<Database>;
type Row = Insertable<TicketTable>;

/** Ticket states that use a member benefit: held in a cart or sold. */

let unsafeSkipMemberLock = false;
/**
 * TEST ONLY. Without the membership row lock, concurrent reserves of one member each count the benefits used before
 * the others commit and together pass the limit (the control of the member-limit concurrency test). Not reachable
 * from HTTP or configuration.
 */
export function setUnsafeSkipMemberLockForTests(on: boolean): void {
  unsafeSkipMemberLock = on;
}

/** The identity's membership that is current now (the latest ending one when a renewal already runs). */
export async function currentMembership(trx: Trx, identityId: string | null, now: Date, opts: { lock?: boolean } = {}) {
  if (!identityId) return undefined;
  return trx
    .selectFrom('membership')
    .selectAll()
    .where('identity_id', '=', identityId)
    .where('state', '=', 'active')
    .where('valid_from', '<=', now)
    .where('valid_to', '>', now)
    .orderBy('valid_to', 'desc')
    .limit(1)
    .$if(!!opts.lock && !unsafeSkipMemberLock, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** Whether a group or type is sold to members only (spec section 6). */
export const memberOnly = (group: Pick<TicketGroup, 'hidden_type'>, type: { member_only: boolean }) =>
  group.hidden_type === 'public_member_only' || type.member_only;

/**
 * Membership lines of a reservation (issue 12). A level is one line per member (`party_role`, and the name of a named
 * member); the level's price is charged once, on its first line (the primary), the others are 0 and carry the party
 * role. A logged-in member buying a level of the program they belong to renews: allowed only inside the seller's
 * renewal period before the current term ends (`renewal_not_open` with the date it opens otherwise), and the new term
 * starts where the current one ends (the booking reads `renewal_of`).
 */
export async function prepareLevelLines(
  trx: Trx,
  args: { now: Date; seller: Seller; memberIdentityId: string | null; rows: Row[]; partyRoles: Array<string | undefined> },
): Promise<void> {
  const levelRows = args.rows.map((r, i) => ({ r, i })).filter(({ r }) => r.handler === 'membership');
  if (levelRows.length === 0) return;
  const roles = await trx
    .selectFrom('role')
    .select(['id', 'ticket_type_id', 'membership_program_id'])
    .where('ticket_type_id', 'in', [...new Set(levelRows.map(({ r }) => r.ticket_type_id))])
    .execute();
  const current = await currentMembership(trx, args.memberIdentityId, args.now);
  const seen = new Set<string>();
  for (const { r, i } of levelRows) {
    const role = roles.find((x) => x.ticket_type_id === r.ticket_type_id);
    if (!role) {
      throw new DomainError('ticket_type_not_found', 'This membership level is not available.', 'reserve', {
        ticket_type_id: r.ticket_type_id,
      });
    }
    const data = JSON.parse(String(r.handler_data ?? '{}')) as Record<string, unknown>;
    const primary = !seen.has(r.ticket_type_id);
    seen.add(r.ticket_type_id);
    data.party_role = args.partyRoles[i] ?? 'member';
    data.primary = primary;
    data.role_id = role.id;
    // Rows inserted together share created_at: the position keeps the members in the order the buyer gave them.
    data.position = i;
    if (current && current.membership_program_id === role.membership_program_id) {
      const opens = renewalOpensAt(new Date(current.valid_to), memberSettings(args.seller.config).renewalPeriodDays);
      if (args.now.getTime() < opens.getTime()) {
        throw new DomainError('renewal_not_open', 'Your membership can be renewed later.', 'reserve', {
          renew_from: opens.toISOString(),
          membership_id: current.id,
        });
      }
      data.renewal_of = current.id;
    }
    if (!primary) {
      r.face_value = 0;
      r.adjusted_value = 0;
      r.fees = 0;
      data.fee_fixed = 0;
      data.fee_percent = 0;
    }
    r.handler_data = JSON.stringify(data);
  }
}

/**
 * The level rules on what the cart holds after a change (spec section 5, admit details of members): per level, each
 * party role between its rule's min and max (max below 0: any), a name on every member of a named role, no role the
 * level does not know, at least one member.
 */
export async function checkLevelLines(trx: Trx, cartId: string, touchedGroupIds: string[]): Promise<void> {
  if (touchedGroupIds.length === 0) return;
  const lines = await trx
    .selectFrom('ticket')
    .select(['id', 'ticket_type_id', 'admit_name', 'handler_data'])
    .where('cart_id', '=', cartId)
    .where('state', '=', 'in_cart')
    .where('handler', '=', 'membership')
    .where('ticket_group_id', 'in', touchedGroupIds)
    .execute();
  if (lines.length === 0) return;
  const typeIds = [...new Set(lines.map((l) => l.ticket_type_id))];
  const rules = await trx
    .selectFrom('membership_rule')
    .innerJoin('role', 'role.id', 'membership_rule.role_id')
    .select([
      'role.ticket_type_id as level_type_id',
      'membership_rule.party_role',
      'membership_rule.named',
      'membership_rule.min',
      'membership_rule.max',
    ])
    .where('role.ticket_type_id', 'in', typeIds)
    .execute();
  const refuse = (description: string, extra: Record<string, unknown>) =>
    new DomainError('validation_failed', description, 'reserve', { field: 'members', ...extra });
  for (const typeId of typeIds) {
    const mine = lines.filter((l) => l.ticket_type_id === typeId);
    const levelRules = rules.filter((r) => r.level_type_id === typeId);
    const byRole = new Map<string, typeof mine>();
    for (const l of mine) {
      const role = String(l.handler_data?.party_role ?? 'member');
      byRole.set(role, [...(byRole.get(role) ?? []), l]);
    }
    for (const role of byRole.keys()) {
      if (levelRules.length > 0 && !levelRules.some((r) => r.party_role === role)) {
        throw refuse('This membership level has no such member.', { ticket_type_id: typeId, party_role: role });
      }
    }
    const members = levelRules.length === 0 ? mine.length : levelRules.reduce((n, r) => n + (byRole.get(r.party_role)?.length ?? 0), 0);
    if (members === 0 || (levelRules.some((r) => r.party_role === 'member') && !byRole.get('member')?.length)) {
      throw refuse('At least one member is required to purchase a membership.', { ticket_type_id: typeId, min: 1 });
    }
    for (const rule of levelRules) {
      const count = byRole.get(rule.party_role)?.length ?? 0;
      if (count < rule.min || (rule.max >= 0 && count > rule.max)) {
        throw refuse(
          `This membership level takes ${rule.min} to ${rule.max < 0 ? 'any number of' : rule.max} ${rule.party_role} members.`,
          {
            ticket_type_id: typeId,
            party_role: rule.party_role,
            min: rule.min,
            max: rule.max,
            count,
          },
        );
      }
      if (rule.named === 'yes' && byRole.get(rule.party_role)?.some((l) => !l.admit_name)) {
        throw refuse('Please enter the full name for each member.', { ticket_type_id: typeId, party_role: rule.party_role });
      }
    }
  }
}

/** What a member reserving member tickets is checked against once the rows are in (see checkMemberBenefits). */
export interface MemberClaim {
  membership: Membership;
  benefits: Benefit[];
  sessionIds: string[];
}

/**
 * Member tickets of a reservation (spec sections 5, 6): tickets of members-only groups or types go to a current member
 * only, only of the types the level's benefits name, at the benefit's price, and are tagged with the membership.
 * The membership row is locked here (after the cart's row, before any capacity row), so the member's concurrent
 * reserves count their benefits one after another (checkMemberBenefits, after the rows are inserted).
 */
export async function prepareMemberTickets(
  trx: Trx,
  args: {
    now: Date;
    seller: Seller;
    memberIdentityId: string | null;
    rows: Row[];
    groups: Map<string, TicketGroup>;
  },
): Promise<MemberClaim | null> {
  const candidates = args.rows.filter((r) => r.handler !== 'membership');
  if (candidates.length === 0) return null;
  const types = await trx
    .selectFrom('ticket_type')
    .select(['id', 'member_only', 'outside_fees'])
    .where('id', 'in', [...new Set(candidates.map((r) => r.ticket_type_id))])
    .execute();
  const memberRows = candidates.filter((r) => {
    const type = types.find((t) => t.id === r.ticket_type_id)!;
    return memberOnly(args.groups.get(r.ticket_group_id)!, type);
  });
  if (memberRows.length === 0) return null;
  const membership = await currentMembership(trx, args.memberIdentityId, args.now, { lock: true });
  if (!membership) {
    throw new DomainError('rule_blocks_reserve', 'These tickets are for members only.', 'reserve', { block_reason: 'membership_required' });
  }
  const role = await trx.selectFrom('role').select(['benefits']).where('id', '=', membership.role_id).executeTakeFirstOrThrow();
  const benefits = (role.benefits ?? []) as Benefit[];
  const settings = memberSettings(args.seller.config);
  for (const r of memberRows) {
    const benefit = benefits.find((b) => b.ticket_type_id === r.ticket_type_id);
    if (!benefit) {
      throw new DomainError('member_limit_exceeded', 'Your membership does not include these tickets.', 'reserve', {
        ticket_type_id: r.ticket_type_id,
        limit: 0,
      });
    }
    const start = r.event_session_id && r.valid_from ? new Date(r.valid_from as string | Date) : undefined;
    if (start && start.getTime() >= new Date(membership.valid_to).getTime()) {
      const beyond =
        settings.reserveBeyondTerm === 'always' ||
        (settings.reserveBeyondTerm === 'if_autorenew' && membership.auto_renew_state === 'scheduled');
      if (!beyond) {
        throw new DomainError('membership_ends_before_visit', 'Your membership ends before this visit.', 'reserve', {
          valid_to: new Date(membership.valid_to).toISOString(),
          event_session_id: r.event_session_id,
        });
      }
    }
    if (benefit.price !== null && benefit.price !== undefined) {
      const type = types.find((t) => t.id === r.ticket_type_id)!;
      const fees = outsideFees(benefit.price, type.outside_fees);
      r.face_value = Math.min(Number(r.face_value), benefit.price);
      r.adjusted_value = benefit.price;
      r.fees = fees.fixed + fees.percent;
      const data = JSON.parse(String(r.handler_data ?? '{}')) as Record<string, unknown>;
      r.handler_data = JSON.stringify({ ...data, fee_fixed: fees.fixed, fee_percent: fees.percent, member_price: true });
    }
    r.membership_id = membership.id;
  }
  const sessionIds = [...new Set(memberRows.map((r) => r.event_session_id).filter((s): s is string => !!s))];
  return { membership, benefits, sessionIds };
}

/**
 * After the member's rows are inserted, under the membership's row lock: per session, what the membership holds and
 * has bought (in any cart or order) stays within each benefit's quantity, with what goes beyond drawn from the shared
 * wildcard ('*') pool, and within the level's member_event_purchase_limit. One statement counts them.
 */
export async function checkMemberBenefits(trx: Trx, claim: MemberClaim | null): Promise<void> {
  if (!claim || claim.sessionIds.length === 0) return;
  const { membership, benefits } = claim;
  const { rows } = await sql<{ event_session_id: string; ticket_type_id: string; n: number }>`
    select event_session_id, ticket_type_id, count(*)::int as n from ticket
    where membership_id = ${membership.id} and state in (${sql.join([...LIVE_TICKET_STATES])})
      and event_session_id in (${sql.join(claim.sessionIds)})
    group by 1, 2`.execute(trx);
  const pool = benefits.filter((b) => b.ticket_type_id === '*').reduce((n, b) => n + b.quantity, 0);
  const limit = membership.member_event_purchase_limit;
  for (const sessionId of claim.sessionIds) {
    const used = rows.filter((r) => r.event_session_id === sessionId);
    const total = used.reduce((n, r) => n + r.n, 0);
    const beyond = used.reduce((n, r) => {
      const own = benefits.find((b) => b.ticket_type_id === r.ticket_type_id)?.quantity ?? 0;
      return n + Math.max(0, r.n - own);
    }, 0);
    if (beyond > pool || (limit >= 0 && total > limit)) {
      throw new DomainError('member_limit_exceeded', 'You have reached the number of member tickets your membership allows.', 'reserve', {
        event_session_id: sessionId,
        limit: limit >= 0 ? limit : null,
        used: total,
      });
    }
  }
}
