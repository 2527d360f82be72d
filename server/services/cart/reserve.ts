import type { Insertable, Transaction } from 'kysely';
import type { Database, EventSession, TicketGroup, TicketTable, TicketType } from '../../db/types';
import { DomainError, notFound } from '../errors';
import { parseMoney } from '../../../src/domain/money';
import { isFlexiblePrice, outsideFees, ticketPrice, withinFlexibleBounds } from '../../../src/domain/cart-rules';
import { assertSellable, hasActiveMembership, loadGroups, type CapacityNeed } from '../inventory';
import { checkSeatChoices } from '../seats';
import { prepareCitypassCodes } from '../citypass';

type Trx = Transaction<Database>;

/** One reservation line of spec section 3 (prices come from the catalogue, never from the client). */
export interface AddLine {
  event_session_id?: string | null;
  ticket_type_id: string;
  admit_name?: string | null;
  admit_email?: string | null;
  /** Only for flexible-price types: the amount the buyer chose, within the type's min and max. */
  face_value?: string | number | null;
  seat_id?: string | null;
  /** membership lines: the member's party role of the level's rules */
  party_role?: string;
  /** CityPASS lines: the visitor's code for this ticket (server/services/citypass.ts) */
  citypass_code?: string | null;
}

export interface PreparedAdds {
  rows: Insertable<TicketTable>[];
  needs: CapacityNeed[];
  groups: Map<string, TicketGroup>;
  sessionIds: string[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const invalid = (field: string, description: string) => new DomainError('validation_failed', description, 'reserve', { field });

/** Admit details by the group's meta (admit_names / admit_emails: disabled, optional or required). */
export function admitDetails(line: AddLine, group: TicketGroup, index: number) {
  const meta = group.meta ?? {};
  const name = (line.admit_name ?? '').trim().replace(/\s+/g, ' ');
  const email = (line.admit_email ?? '').trim();
  // A membership level's rules say which members are named (membership/reserve.ts), not the group's setting.
  if (meta.admit_names === 'required' && !name && group.handler !== 'membership')
    throw invalid(`add.${index}.admit_name`, 'Please enter the full name for each ticket.');
  if (meta.admit_emails === 'required' && !email)
    throw invalid(`add.${index}.admit_email`, 'Please enter the email address for each ticket.');
  if (name.length > 101) throw invalid(`add.${index}.admit_name`, 'The name is too long.');
  if (email && (email.length > 254 || !EMAIL.test(email))) throw invalid(`add.${index}.admit_email`, 'Email address is not valid.');
  return {
    admit_name: meta.admit_names === 'disabled' || !name ? null : name,
    admit_email: meta.admit_emails === 'disabled' || !email ? null : email,
  };
}

/** Validates and prices the lines to add; the caller takes `needs` and inserts `rows` in its transaction. */
export async function prepareAdds(
  trx: Trx,
  args: {
    now: Date;
    sellerId: string;
    cartId: string;
    identityId: string | null;
    lines: AddLine[];
  },
): Promise<PreparedAdds> {
  const { now, sellerId, cartId, lines } = args;
  const typeIds = [...new Set(lines.map((l) => l.ticket_type_id))];
  const types = new Map<string, TicketType>(
    (await trx.selectFrom('ticket_type').selectAll().where('id', 'in', typeIds).where('seller_id', '=', sellerId).execute()).map((t) => [
      t.id,
      t,
    ]),
  );
  for (const id of typeIds) if (!types.has(id)) throw notFound('ticket_type', id);

  const groups = await loadGroups(
    trx,
    [...types.values()].map((t) => t.ticket_group_id),
  );
  const sessionIds = [...new Set(lines.map((l) => l.event_session_id).filter((s): s is string => !!s))];
  const sessions = new Map<string, EventSession>(
    sessionIds.length === 0
      ? []
      : (await trx.selectFrom('event_session').selectAll().where('id', 'in', sessionIds).where('seller_id', '=', sellerId).execute()).map(
          (s) => [s.id, s],
        ),
  );
  for (const id of sessionIds) if (!sessions.has(id)) throw notFound('event_session', id);

  const needsMembership = [...types.values()].some(
    (t) => t.member_only || groups.get(t.ticket_group_id)?.hidden_type === 'public_member_only',
  );
  const isMember = needsMembership && (await hasActiveMembership(trx, args.identityId, now));

  const rows: Insertable<TicketTable>[] = [];
  const needs: CapacityNeed[] = [];
  lines.forEach((line, index) => {
    const type = types.get(line.ticket_type_id)!;
    const group = groups.get(type.ticket_group_id)!;
    // Flexible (any-date) groups are not sold per session; a session id sent with them is ignored.
    const session = group.flexible ? null : line.event_session_id ? sessions.get(line.event_session_id)! : null;
    assertSellable({ now, group, type, session, isMember });

    let flexibleAmount: number | undefined;
    if (isFlexiblePrice(type)) {
      const amount = line.face_value === null || line.face_value === undefined ? null : parseMoney(line.face_value);
      if (amount === null || !withinFlexibleBounds(type, amount)) {
        throw new DomainError('validation_failed', 'Value entered is outside min/max', 'reserve', {
          field: `add.${index}.face_value`,
          min: type.price_min,
          max: type.price_max,
        });
      }
      flexibleAmount = amount;
    }
    const price = ticketPrice(type, session?.price_increase ?? 0, flexibleAmount);
    const fees = outsideFees(price.adjusted_value, type.outside_fees);
    rows.push({
      seller_id: sellerId,
      cart_id: cartId,
      event_template_id: group.event_template_id,
      event_session_id: session?.id ?? null,
      ticket_group_id: group.id,
      ticket_type_id: type.id,
      state: 'in_cart',
      handler: group.handler,
      valid_from: session?.start_datetime ?? null,
      valid_to: session?.end_datetime ?? null,
      ...admitDetails(line, group, index),
      face_value: price.face_value,
      adjusted_value: price.adjusted_value,
      fees: fees.fixed + fees.percent,
      seat_id: line.seat_id ?? null,
      additional_info: '{}',
      handler_data: JSON.stringify({ fee_fixed: fees.fixed, fee_percent: fees.percent }),
    });
    needs.push({ sessionId: session?.id ?? null, groupId: group.id, count: 1 });
  });

  await checkNamedRules(trx, rows);
  await checkSeatChoices(trx, rows, groups);
  await prepareCitypassCodes(trx, { now, lines, rows, groups, types });
  return { rows, needs, groups, sessionIds: [...new Set(rows.map((r) => r.event_session_id).filter((s): s is string => !!s))] };
}

/**
 * Named ticket rules (spec section 5): a rule with named 'yes' needs a name on at least `min` of the tickets
 * it covers (its type, or its whole group when it names no type), counted over the lines being added.
 */
async function checkNamedRules(trx: Trx, rows: Insertable<TicketTable>[]) {
  const groupIds = [...new Set(rows.map((r) => r.ticket_group_id))];
  const rules = await trx
    .selectFrom('ticket_rule')
    .selectAll()
    .where('ticket_group_id', 'in', groupIds)
    .where('named', '=', 'yes')
    .where('min', '>', 0)
    .execute();
  assertNamedRules(rules, rows);
}

/** The named-ticket rules of the groups added to, checked over the rows being added (no database). */
export function assertNamedRules(
  rules: Array<{ ticket_group_id: string; ticket_type_id: string | null; min: number }>,
  rows: Array<Pick<Insertable<TicketTable>, 'ticket_group_id' | 'ticket_type_id' | 'admit_name'>>,
) {
  for (const rule of rules) {
    const covered = rows.filter(
      (r) => r.ticket_group_id === rule.ticket_group_id && (!rule.ticket_type_id || r.ticket_type_id === rule.ticket_type_id),
    );
    const required = Math.min(rule.min, covered.length);
    if (covered.filter((r) => r.admit_name).length < required) {
      throw new DomainError('validation_failed', 'Please enter the full name for each ticket.', 'reserve', {
        field: 'admit_name',
        ticket_group_id: rule.ticket_group_id,
        ticket_type_id: rule.ticket_type_id,
        required,
      });
    }
  }
}
