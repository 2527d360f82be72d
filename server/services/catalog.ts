import type { Db } from '../db';
import type { HiddenType, Seller } from '../db/types';
import { DomainError } from './errors';
import { table } from '../../src/contract/tables';
import type { EventsAnswer, TicketGroupAnswer } from '../../src/contract/catalogue';
import { eventLevelGroupCounters } from './event-context';
import { expiredHolds } from './inventory-read';
import { nextSessionStarts } from './events';
import { eventTemplateRow, ticketGroupRow, ticketTypeRow, venueRow } from './wire';

export interface TemplateListOptions {
  ids?: string[];
  categories?: string[];
  hiddenTypes?: string[];
  embed: Set<string>;
  limit: number;
  offset: number;
}

const LISTABLE = ['public_browsable', 'public_member_only', 'public_link_only'];

/** GET event_template: event templates by id or category (never 'hidden' ones), with venue and meta. */
export async function listEventTemplates(
  db: Db,
  seller: Seller,
  o: TemplateListOptions,
  now: Date,
): Promise<Pick<EventsAnswer, 'event_template' | 'venue'>> {
  const hidden = (o.hiddenTypes ?? LISTABLE).filter((h) => LISTABLE.includes(h));
  if (!hidden.length || o.ids?.length === 0) return { event_template: table([]) };
  let q = db
    .selectFrom('event_template')
    .selectAll()
    .where('seller_id', '=', seller.id)
    .where('hidden_type', 'in', hidden as HiddenType[]);
  if (o.ids) q = q.where('id', 'in', o.ids);
  if (o.categories) q = q.where('category', 'in', o.categories.length ? o.categories : ['']);
  const events = await q.orderBy('_rank').orderBy('name').orderBy('id').execute();
  const pageEvents = events.slice(o.offset, o.offset + o.limit);
  const next = await nextSessionStarts(
    db,
    pageEvents.map((e) => e.id),
    now,
  );
  const out: Pick<EventsAnswer, 'event_template' | 'venue'> = {
    event_template: table(
      pageEvents.map((e) =>
        eventTemplateRow(e, {
          meta: o.embed.has('meta'),
          config: o.embed.has('config'),
          nextSessionStart: next.get(e.id) ?? null,
        }),
      ),
      events.length,
    ),
  };
  if (o.embed.has('venue')) {
    const ids = [...new Set(pageEvents.map((e) => e.venue_id).filter((v): v is string => Boolean(v)))];
    const venues = ids.length
      ? await db.selectFrom('venue').select(['id', 'name', 'timezone', 'address']).where('id', 'in', ids).execute()
      : [];
    out.venue = table(venues.map(venueRow));
  }
  return out;
}

/** GET ticket_group/{id}: one group of the seller (donation groups carry their flexible price range on the types). */
export async function getTicketGroup(db: Db, seller: Seller, groupId: string, embed: Set<string>, now: Date): Promise<TicketGroupAnswer> {
  const group = await db
    .selectFrom('ticket_group')
    .selectAll()
    .where('id', '=', groupId)
    .where('seller_id', '=', seller.id)
    .where('hidden_type', '!=', 'hidden')
    .executeTakeFirst();
  const event =
    group &&
    (await db
      .selectFrom('event_template')
      .select(['category', 'hidden_type'])
      .where('id', '=', group.event_template_id)
      .executeTakeFirst());
  if (!group || !event || event.hidden_type === 'hidden') {
    throw new DomainError('ticket_group_not_found', 'Resource ticket_group not found.', undefined, {
      resource: 'ticket_group',
      id: groupId,
    });
  }
  const expired = await expiredHolds(db, [group.event_template_id], now);
  const counters = eventLevelGroupCounters(group, now, expired.get(`|${group.id}`) ?? 0);
  const out: TicketGroupAnswer = { ticket_group: table([ticketGroupRow(group, counters)]) };
  if (embed.has('ticket_type')) {
    const types = await db
      .selectFrom('ticket_type')
      .selectAll()
      .where('ticket_group_id', '=', group.id)
      .orderBy('_rank')
      .orderBy('name')
      .execute();
    out.ticket_type = table(types.map((t) => ticketTypeRow(t, { category: event.category, available: counters.available })));
  }
  return out;
}
