import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';
import { DomainError } from '../errors';
import { table } from '../../../src/contract/tables';
import type { MembershipRulesAnswer } from '../../../src/contract/membership';
import { ticketTypeWire } from '../cart/view';
import { roleRow } from './rows';
import { qrPng } from '../qr';

/** GET membership_rules: every level's rules; `_embed` adds the levels (role), their programs and ticket types. */
export async function membershipRules(deps: Deps, seller: Seller, embed: Set<string>): Promise<MembershipRulesAnswer> {
  const roles = await deps.db.selectFrom('role').selectAll().where('seller_id', '=', seller.id).orderBy('_rank').orderBy('name').execute();
  const rules = await deps.db
    .selectFrom('membership_rule')
    .selectAll()
    .where('seller_id', '=', seller.id)
    .orderBy('role_id')
    .orderBy('party_role')
    .limit(1000)
    .execute();
  const out: MembershipRulesAnswer = {
    membership_rule: table(
      rules.map((r) => ({
        id: r.id,
        role_id: r.role_id,
        ticket_type_id: r.ticket_type_id,
        ticket_group_id: r.ticket_group_id,
        party_role: r.party_role,
        named: r.named,
        min: r.min,
        max: r.max,
      })),
    ),
  };
  if (embed.has('role')) out.role = table(roles.map(roleRow));
  if (embed.has('membership_program')) {
    out.membership_program = table(
      await deps.db
        .selectFrom('membership_program')
        .select(['id', 'name', '_rank'])
        .where('seller_id', '=', seller.id)
        .orderBy('_rank')
        .execute(),
    );
  }
  if (embed.has('ticket_type')) {
    const typeIds = [
      ...new Set([...roles.map((r) => r.ticket_type_id), ...rules.map((r) => r.ticket_type_id)].filter((t): t is string => !!t)),
    ];
    const types = typeIds.length
      ? await deps.db.selectFrom('ticket_type').selectAll().where('id', 'in', typeIds).orderBy('_rank').execute()
      : [];
    out.ticket_type = table(types.map(ticketTypeWire));
  }
  return out;
}

/** GET membership/{id}/qrcode: the logged-in member's own card, as a QR code of its scan code. */
export async function membershipQrPng(deps: Deps, identityId: string, membershipId: string): Promise<Buffer> {
  const m = await deps.db
    .selectFrom('membership')
    .select(['scan_code'])
    .where('id', '=', membershipId)
    .where('identity_id', '=', identityId)
    .executeTakeFirst();
  if (!m) throw new DomainError('not_found', 'We could not find that membership.', 'membership', { id: membershipId });
  return qrPng(m.scan_code);
}
