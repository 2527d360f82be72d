import type { Membership, Role } from '../../db/types';
import type { MembershipRow, RoleRow } from '../../../src/contract/account';

const instant = (d: Date | string) => new Date(d).toISOString();

/** A membership as the wire shows it (GET my/membership and every answer that returns one). */
export function membershipRow(m: Membership, benefits: unknown[]): MembershipRow {
  return {
    id: m.id,
    scan_code: m.scan_code,
    role_id: m.role_id,
    membership_program_id: m.membership_program_id,
    state: m.state,
    auto_renew_state: m.auto_renew_state,
    valid_from: instant(m.valid_from),
    valid_to: instant(m.valid_to),
    validFrom: instant(m.valid_from),
    validTo: instant(m.valid_to),
    member_event_purchase_limit: m.member_event_purchase_limit,
    ticket_order_id: m.ticket_order_id,
    ticket_id: m.ticket_id,
    ticket_group_id: m.ticket_group_id,
    event_template_id: m.event_template_id,
    identity_id: m.identity_id,
    benefits,
    members: m.members ?? [],
  };
}

/** A membership level as the wire shows it. */
export const roleRow = (r: Role): RoleRow => ({
  id: r.id,
  name: r.name,
  _rank: r._rank,
  membership_program_id: r.membership_program_id,
  ticket_type_id: r.ticket_type_id,
  duration_months: r.duration_months,
  giftable: r.giftable,
  auto_renew: r.auto_renew,
  member_event_purchase_limit: r.member_event_purchase_limit,
  benefits: r.benefits,
});
