import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types';
import { money, type Plan } from './plan';
import type { CatalogEvent, SellerFolder } from './types';

export type Tx = Kysely<Database>;
/** Rows per INSERT: keeps statements well under PostgreSQL's 65535 bind parameters. */
export const BATCH = 500;
const json = (v: unknown) => JSON.stringify(v ?? null);

export function chunks<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `on conflict ... do update set col = excluded.col` for the listed columns. */
export function excluded(cols: string[]) {
  return (eb: any) => Object.fromEntries(cols.map((c) => [c, eb.ref(`excluded.${c}`)]));
}

/** Ids of what the writer has upserted, by key, for resolving references. */
export interface Ids {
  sellerId: string;
  images: Map<string, string>;
  venues: Map<string, string>;
  seatMaps: Map<string, string>;
  events: Map<string, string>;
  /** 'eventKey/groupKey' -> id */
  groups: Map<string, string>;
  /** 'eventKey/groupKey/typeKey' -> id */
  types: Map<string, string>;
}

async function upsertKeyed(
  tx: Tx,
  table: 'image' | 'venue' | 'seat_map',
  rows: Record<string, unknown>[],
  cols: string[],
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const batch of chunks(rows)) {
    const res = await (tx as Kysely<any>)
      .insertInto(table)
      .values(batch)
      .onConflict((oc) => oc.columns(['seller_id', 'key']).doUpdateSet(excluded(cols)))
      .returning(['id', 'key'])
      .execute();
    for (const r of res) ids.set(r.key, r.id);
  }
  return ids;
}

export async function writeSellerRow(tx: Tx, folder: SellerFolder): Promise<string> {
  const c = folder.config;
  const row = await tx
    .insertInto('seller')
    .values({
      slug: c.slug,
      name: c.name,
      currency: c.default_currency_code,
      timezone: c.timezone,
      config: json({}),
      strings: json(folder.strings),
      content_blocks: json(folder.contentBlocks),
    })
    .onConflict((oc) =>
      oc.column('slug').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        currency: eb.ref('excluded.currency'),
        timezone: eb.ref('excluded.timezone'),
        strings: eb.ref('excluded.strings'),
        content_blocks: eb.ref('excluded.content_blocks'),
        updated_at: sql`now()`,
      })),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function writeMedia(tx: Tx, sellerId: string, folder: SellerFolder, plan: Plan) {
  const images = await upsertKeyed(
    tx,
    'image',
    folder.images.map((i) => ({
      seller_id: sellerId,
      key: i.key,
      content_type: i.contentType,
      width: i.width,
      height: i.height,
      data: i.data,
      sha256: i.sha256,
    })),
    ['content_type', 'width', 'height', 'data', 'sha256'],
  );
  const venues = await upsertKeyed(
    tx,
    'venue',
    folder.catalog.venues.map((v) => ({
      seller_id: sellerId,
      key: v.key,
      name: v.name,
      timezone: v.timezone,
      address: json(v.address ?? {}),
    })),
    ['name', 'timezone', 'address'],
  );
  const maps = folder.catalog.seat_maps ?? [];
  const seatMaps = await upsertKeyed(
    tx,
    'seat_map',
    maps.map((m) => ({
      seller_id: sellerId,
      key: m.key,
      name: m.name,
      width: m.width,
      height: m.height,
      other_elements: m.other_elements ?? '',
      map_geometry: json(plan.seatMaps.find((p) => p.key === m.key)!.geometry),
    })),
    ['name', 'width', 'height', 'other_elements', 'map_geometry'],
  );
  for (const planned of plan.seatMaps) {
    const seatMapId = seatMaps.get(planned.key)!;
    for (const batch of chunks(planned.seats)) {
      await tx
        .insertInto('seat')
        .values(batch.map((s) => ({ ...s, seat_map_id: seatMapId, ticket_group_keys: json(s.ticket_group_keys) })))
        .onConflict((oc) =>
          oc
            .columns(['seat_map_id', 'name'])
            .doUpdateSet(
              excluded(['section', 'row_label', 'number', 'x', 'y', 'r', 'previous_seat', 'next_seat', 'ticket_group_keys', 'unavailable']),
            ),
        )
        .execute();
    }
  }
  return { images, venues, seatMaps };
}

function eventMeta(ev: CatalogEvent, folder: SellerFolder, images: Map<string, string>) {
  const meta: Record<string, unknown> = { ...(ev.meta ?? {}) };
  const alt = (key: string | undefined) => folder.catalog.images?.find((i) => i.key === key)?.alt;
  for (const field of ['image_profile', 'image_cover'] as const) {
    const key = ev.meta?.[field];
    if (!key) continue;
    meta[field] = images.get(key);
    meta[`${field}_alt`] = ev.meta?.[`${field}_alt`] ?? alt(key) ?? '';
  }
  return meta;
}

/** The event config as stored: catalogue keys replaced by ids. Needs group and type ids, so it is written last. */
function eventConfig(ev: CatalogEvent, ids: Ids) {
  const web = { ...(ev.config?.web ?? {}) } as Record<string, any>;
  if (web.price_display) {
    const pd = { ...web.price_display };
    for (const field of ['primary_ticket_type', 'secondary_ticket_type']) {
      if (pd[field]) pd[`${field}_id`] = ids.types.get(`${ev.key}/${pd[field]}`);
      delete pd[field];
    }
    web.price_display = pd;
  }
  const config: Record<string, unknown> = { web };
  if (ev.upsell) {
    config.upsell = {
      requires_anchor: ev.upsell.requires_anchor ?? true,
      anchor_event_ids: (ev.upsell.anchor_events ?? []).map((k) => ids.events.get(k)),
      anchor_categories: ev.upsell.anchor_categories ?? [],
    };
  }
  return config;
}

export async function writeEvents(tx: Tx, folder: SellerFolder, plan: Plan, ids: Ids) {
  const { sellerId } = ids;
  const rows = plan.events.map(({ source: ev, rank }) => ({
    seller_id: sellerId,
    key: ev.key,
    venue_id: ev.venue ? ids.venues.get(ev.venue)! : null,
    seat_map_id: ev.seat_map ? ids.seatMaps.get(ev.seat_map)! : null,
    name: ev.name,
    category: ev.category ?? '',
    subtitle: ev.subtitle ?? null,
    summary: ev.summary ?? null,
    description: ev.description ?? null,
    event_type: ev.event_type,
    hidden_type: ev.hidden_type ?? 'public_browsable',
    _rank: rank,
    config: json({}),
    meta: json(eventMeta(ev, folder, ids.images)),
    metadata: json(ev.metadata ?? {}),
  }));
  for (const r of await tx
    .insertInto('event_template')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['seller_id', 'key'])
        .doUpdateSet(
          excluded([
            'venue_id',
            'seat_map_id',
            'name',
            'category',
            'subtitle',
            'summary',
            'description',
            'event_type',
            'hidden_type',
            '_rank',
            'meta',
            'metadata',
          ]),
        ),
    )
    .returning(['id', 'key'])
    .execute())
    ids.events.set(r.key, r.id);

  const groups = plan.events.flatMap(({ source: ev }) =>
    ev.ticket_groups.map((g, gi) => ({
      seller_id: sellerId,
      event_template_id: ids.events.get(ev.key)!,
      key: g.key,
      name: g.name,
      description: g.description ?? null,
      summary: g.summary ?? null,
      color: g.color ?? null,
      handler: g.handler as any,
      hidden_type: g.hidden_type ?? 'public_browsable',
      _rank: gi,
      min_tickets_per_order: g.min_tickets_per_order ?? 0,
      max_tickets_per_order: g.max_tickets_per_order ?? -1,
      capacity: g.capacity ?? -1,
      oversell_capacity: g.oversell ?? 0,
      exclude_from_event_capacity: g.exclude_from_event_capacity ?? false,
      flexible: g.flexible ?? false,
      sales_start: plan.instant(g.sales_start),
      sales_end: plan.instant(g.sales_end),
      start_policy: g.start_policy ?? null,
      start_policy_date: plan.instant(g.start_policy_date),
      duration_new: g.duration_new ?? null,
      additional_info_spec: g.additional_info_spec ? json({ type: 'object', ...g.additional_info_spec }) : null,
      meta: json(g.meta ?? {}),
      config: json({}),
    })),
  );
  const eventKeyById = new Map([...ids.events].map(([k, v]) => [v, k]));
  for (const batch of chunks(groups)) {
    for (const r of await tx
      .insertInto('ticket_group')
      .values(batch)
      .onConflict((oc) =>
        oc
          .columns(['event_template_id', 'key'])
          .doUpdateSet(
            excluded([
              'name',
              'description',
              'summary',
              'color',
              'handler',
              'hidden_type',
              '_rank',
              'min_tickets_per_order',
              'max_tickets_per_order',
              'capacity',
              'oversell_capacity',
              'exclude_from_event_capacity',
              'flexible',
              'sales_start',
              'sales_end',
              'start_policy',
              'start_policy_date',
              'duration_new',
              'additional_info_spec',
              'meta',
            ]),
          ),
      )
      .returning(['id', 'key', 'event_template_id'])
      .execute())
      ids.groups.set(`${eventKeyById.get(r.event_template_id)}/${r.key}`, r.id);
  }

  const types = plan.events.flatMap(({ source: ev }) =>
    ev.ticket_groups.flatMap((g) =>
      g.types.map((t, ti) => ({
        seller_id: sellerId,
        ticket_group_id: ids.groups.get(`${ev.key}/${g.key}`)!,
        key: t.key,
        name: t.name,
        _rank: ti,
        summary: t.summary ?? null,
        description: t.description ?? null,
        price: money(t.price),
        price_min: t.price_min ? money(t.price_min) : null,
        price_max: t.price_max ? money(t.price_max) : null,
        discounted_price: t.discounted_price ? money(t.discounted_price) : null,
        member_only: t.member_only ?? false,
        outside_fees: json(
          (t.outside_fees ?? []).map((f) => ({
            name: f.name,
            ...(f.fixed ? { fixed: money(f.fixed) } : {}),
            ...(f.percent !== undefined ? { percent: f.percent } : {}),
          })),
        ),
        meta: json({}),
      })),
    ),
  );
  const groupKeyById = new Map([...ids.groups].map(([k, v]) => [v, k]));
  for (const batch of chunks(types)) {
    for (const r of await tx
      .insertInto('ticket_type')
      .values(batch)
      .onConflict((oc) =>
        oc
          .columns(['ticket_group_id', 'key'])
          .doUpdateSet(
            excluded([
              'name',
              '_rank',
              'summary',
              'description',
              'price',
              'price_min',
              'price_max',
              'discounted_price',
              'member_only',
              'outside_fees',
            ]),
          ),
      )
      .returning(['id', 'key', 'ticket_group_id'])
      .execute())
      ids.types.set(`${groupKeyById.get(r.ticket_group_id)}/${r.key}`, r.id);
  }

  // Rules carry no key and nothing references them, so they are replaced as a whole.
  const groupIds = [...ids.groups.values()];
  if (groupIds.length) await tx.deleteFrom('ticket_rule').where('ticket_group_id', 'in', groupIds).execute();
  const rules = plan.events.flatMap(({ source: ev }) =>
    ev.ticket_groups.flatMap((g) =>
      (g.rules ?? []).map((r) => ({
        ticket_group_id: ids.groups.get(`${ev.key}/${g.key}`)!,
        ticket_type_id: r.ticket_type ? ids.types.get(`${ev.key}/${g.key}/${r.ticket_type}`)! : null,
        party_role: r.party_role ?? 'guest',
        named: r.named ?? 'no',
        emailed: r.emailed ?? false,
        min: r.min ?? 0,
        max: r.max ?? -1,
      })),
    ),
  );
  for (const batch of chunks(rules)) await tx.insertInto('ticket_rule').values(batch).execute();

  const eventIds = [...ids.events.values()];
  await tx.deleteFrom('message_rule').where('event_template_id', 'in', eventIds).execute();
  const messageRules = plan.events.flatMap(({ source: ev, timezone }) =>
    (ev.message_rules ?? []).map((m, mi) => {
      const d = m.triggers.dateOrSession;
      const q = m.triggers.quantity;
      const day = (v: string | undefined) => (v ? plan.localDay(v, timezone) : undefined);
      return {
        event_template_id: ids.events.get(ev.key)!,
        _rank: mi,
        actions: json(m.actions),
        triggers: json({
          ...(d
            ? {
                dateOrSession: {
                  ...d,
                  ...(d.dateInterval ? { dateInterval: { from: day(d.dateInterval.from), to: day(d.dateInterval.to) } } : {}),
                },
              }
            : {}),
          ...(q
            ? {
                quantity: {
                  ticket_group_ids: (q.ticket_groups ?? []).map((g) => ids.groups.get(`${ev.key}/${g}`)),
                  ticket_group_names: q.ticket_group_names ?? [],
                  ticket_type_ids: (q.ticket_types ?? []).map((t) => ids.types.get(`${ev.key}/${t}`)),
                  ticket_type_names: q.ticket_type_names ?? [],
                  ...(q.min !== undefined ? { min: q.min } : {}),
                  ...(q.max !== undefined ? { max: q.max } : {}),
                },
              }
            : {}),
        }),
      };
    }),
  );
  for (const batch of chunks(messageRules)) await tx.insertInto('message_rule').values(batch).execute();

  for (const { source: ev } of plan.events) {
    await tx
      .updateTable('event_template')
      .set({ config: json(eventConfig(ev, ids)) })
      .where('id', '=', ids.events.get(ev.key)!)
      .execute();
  }
}

/**
 * Inserts missing sessions (unique per event and start) and their per-group capacity rows. Existing sessions keep
 * their ids and usage; their capacity follows the catalogue unless that would put them below what is sold.
 */
export async function writeSessions(tx: Tx, plan: Plan, ids: Ids): Promise<number> {
  let planned = 0;
  for (const { source: ev, sessions } of plan.events) {
    const eventId = ids.events.get(ev.key)!;
    planned += sessions.length;
    for (const batch of chunks(sessions)) {
      await tx
        .insertInto('event_session')
        .values(
          batch.map((s) => ({
            seller_id: ids.sellerId,
            event_template_id: eventId,
            start_datetime: s.start,
            end_datetime: s.end,
            capacity: s.capacity,
            oversell_capacity: s.oversell,
            price_increase: s.priceIncrease,
            annotations: json([]),
          })),
        )
        .onConflict((oc) =>
          // Unchanged rows are left alone (a reload then rewrites nothing); a change never goes below what is sold.
          oc
            .columns(['event_template_id', 'start_datetime'])
            .doUpdateSet(excluded(['end_datetime', 'capacity', 'oversell_capacity', 'price_increase']))
            .where(sql<boolean>`(event_session.end_datetime, event_session.capacity, event_session.oversell_capacity, event_session.price_increase)
          is distinct from (excluded.end_datetime, excluded.capacity, excluded.oversell_capacity, excluded.price_increase)
          and (excluded.capacity < 0 or event_session.used_capacity <= excluded.capacity + excluded.oversell_capacity)`),
        )
        .execute();
    }
  }
  // One set-based statement covers every session x every per-session group of this seller.
  await sql`
    insert into session_ticket_group (event_session_id, ticket_group_id, capacity, oversell_capacity)
    select s.id, g.id, g.capacity, g.oversell_capacity
      from event_session s join ticket_group g on g.event_template_id = s.event_template_id
     where s.seller_id = ${ids.sellerId} and g.flexible = false
    on conflict (event_session_id, ticket_group_id) do update
       set capacity = excluded.capacity, oversell_capacity = excluded.oversell_capacity
     where (session_ticket_group.capacity, session_ticket_group.oversell_capacity) is distinct from (excluded.capacity, excluded.oversell_capacity)
       and (excluded.capacity < 0 or session_ticket_group.used_capacity <= excluded.capacity + excluded.oversell_capacity)
  `.execute(tx);
  return planned;
}
