import type { Insertable, Transaction } from 'kysely';
import type { Db } from '../db';
import { LIVE_TICKET_STATES, type Database, type TicketGroup, type TicketTable, type TicketType } from '../db/types';
import {
  citypassCodeProblem,
  citypassKind,
  citypassPattern,
  normaliseCitypassCode,
  type CitypassSettings,
} from '../../src/domain/citypass';
import { DomainError, isUniqueViolation } from './errors';
import { expireCarts } from './cart/expiry';

type Trx = Transaction<Database>;

/**
 * CityPASS tickets (issue 18). Each ticket of a 'citypass' group carries one code, of the adult or child form the
 * event's config.web.citypass gives. A code is taken once per seller among live tickets by the unique index
 * `ticket_citypass_code_uq` (migration 021): two carts sending the same code at once cannot both insert it, and nothing
 * here reads whether a code is free before taking it (that read could be stale by the time of the write).
 */

const citypassSettings = (config: unknown): CitypassSettings | null =>
  ((config as { web?: { citypass?: CitypassSettings } } | null)?.web?.citypass as CitypassSettings | undefined) ?? null;

/**
 * Checks and sets the code of every CityPASS row (rows[i] is lines[i]'s), before the rows are inserted. A missing
 * or ill-formed code is invalid_citypass naming its field; one code twice in the request is code_exhausted; an event
 * whose patterns are unusable is citypass_failure. A code held by a cart whose time is up is released first, so an
 * abandoned cart does not keep a visitor's pass. Rows of other groups never carry a code.
 */
export async function prepareCitypassCodes(
  trx: Trx,
  args: {
    now: Date;
    lines: Array<{ citypass_code?: string | null }>;
    rows: Insertable<TicketTable>[];
    groups: Map<string, TicketGroup>;
    types: Map<string, TicketType>;
  },
): Promise<void> {
  const { lines, rows, groups, types } = args;
  const eventIds = [...new Set(rows.filter((r) => groups.get(r.ticket_group_id)?.handler === 'citypass').map((r) => r.event_template_id))];
  if (eventIds.length === 0) return;
  const events = new Map(
    (await trx.selectFrom('event_template').select(['id', 'config']).where('id', 'in', eventIds).execute()).map((e) => [
      e.id,
      citypassSettings(e.config),
    ]),
  );
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    // Rows of other groups are built without a code (prepareAdds), whatever the line sent.
    if (groups.get(row.ticket_group_id)?.handler !== 'citypass') return;
    const settings = events.get(row.event_template_id) ?? null;
    const kind = citypassKind(types.get(row.ticket_type_id)?.name ?? '', settings?.child_keywords);
    const field = `add.${index}.citypass_code`;
    if (!citypassPattern(settings, kind)) {
      throw new DomainError('citypass_failure', 'The CityPASS codes of this event cannot be checked.', 'reserve', { field, kind });
    }
    const problem = citypassCodeProblem(lines[index]?.citypass_code, kind, settings);
    if (problem) {
      throw new DomainError('invalid_citypass', 'Does not match the expected format. Please check your CityPASS code.', 'reserve', {
        field,
        kind,
        reason: problem,
      });
    }
    const code = normaliseCitypassCode(lines[index]!.citypass_code);
    if (seen.has(code)) {
      throw new DomainError('code_exhausted', 'A CityPASS code is given twice.', 'reserve', { field, codes: [code], reason: 'repeated' });
    }
    seen.add(code);
    row.citypass_code = code;
  });
  await releaseExpiredHolds(trx, args.now, args.rows[0]!.seller_id, [...seen]);
}

/** Carts whose time is up and that still hold one of these codes give them back (cart/expiry.ts). */
async function releaseExpiredHolds(trx: Trx, now: Date, sellerId: string, codes: string[]) {
  if (codes.length === 0) return;
  const stale = await trx
    .selectFrom('ticket')
    .innerJoin('cart', 'cart.id', 'ticket.cart_id')
    .select('cart.id')
    .where('ticket.seller_id', '=', sellerId)
    .where('ticket.citypass_code', 'in', codes)
    .where('ticket.state', '=', 'in_cart')
    .where('cart.state', '=', 'pending')
    .where('cart.expires_at', '<=', now)
    .execute();
  if (stale.length > 0) await expireCarts(trx, now, { cartIds: [...new Set(stale.map((s) => s.id))] });
}

/** Whether a database error is the code index refusing a second live ticket for a code. */
export const isCitypassConflict = (err: unknown) => isUniqueViolation(err, 'ticket_citypass_code_uq');

/**
 * The refusal for codes another live ticket holds (taken between two shoppers' requests, or a late payment meeting a
 * code reused meanwhile), naming the codes; null for any other error.
 */
export async function citypassTakenError(
  db: Db,
  err: unknown,
  sellerId: string,
  wanted: Array<string | null | undefined>,
  context = 'reserve',
): Promise<DomainError | null> {
  if (!isCitypassConflict(err)) return null;
  const codes = [...new Set(wanted.map(normaliseCitypassCode).filter(Boolean))];
  const taken = codes.length
    ? await db
        .selectFrom('ticket')
        .select('citypass_code')
        .where('seller_id', '=', sellerId)
        .where('citypass_code', 'in', codes)
        .where('state', 'in', [...LIVE_TICKET_STATES])
        .execute()
    : [];
  const named = taken.length ? [...new Set(taken.map((t) => t.citypass_code!))] : codes;
  return new DomainError('code_exhausted', 'The CityPASS code has already been used.', context, { codes: named, reason: 'citypass' });
}

/** citypassTakenError for a cart whose own tickets (a late payment bringing back released holds) met a used code. */
export async function citypassTakenInCart(db: Db, err: unknown, cartId: string): Promise<DomainError | null> {
  if (!isCitypassConflict(err)) return null;
  const tickets = await db
    .selectFrom('ticket')
    .select(['seller_id', 'citypass_code'])
    .where('cart_id', '=', cartId)
    .where('citypass_code', 'is not', null)
    .execute();
  if (tickets.length === 0) return null;
  return citypassTakenError(
    db,
    err,
    tickets[0]!.seller_id,
    tickets.map((t) => t.citypass_code),
    'checkout',
  );
}
