import { isValidTimeZone } from '../../src/domain/dates';
import { IssueList } from './errors';
import { layoutIssues } from '../../src/domain/layout';
import type { CatalogEvent, CatalogGroup, SellerFolder } from './types';
import { citypassSettingsIssues, type CitypassSettings } from '../../src/domain/citypass';

const CAT = 'catalog.json';
const CFG = 'config.json';

/** Keys of the catalogue, for resolving 'event', 'event/group' and 'event/group/type' references. */
export class KeyIndex {
  readonly events = new Map<string, CatalogEvent>();
  readonly images = new Set<string>();
  readonly categories = new Set<string>();
  constructor(folder: SellerFolder) {
    for (const e of folder.catalog.events) {
      if (!this.events.has(e.key)) this.events.set(e.key, e);
      if (e.category) this.categories.add(e.category);
    }
    for (const i of folder.images) this.images.add(i.key);
  }
  group(ref: string): CatalogGroup | undefined {
    const [e, g] = ref.split('/');
    return this.events.get(e)?.ticket_groups.find((x) => x.key === g);
  }
  type(ref: string) {
    const [e, g, t] = ref.split('/');
    return this.group(`${e}/${g}`)?.types.find((x) => x.key === t);
  }
}

function duplicates<T>(issues: IssueList, file: string, base: string, items: T[] | undefined, keyOf: (t: T) => string, field = 'key') {
  const seen = new Map<string, number>();
  (items ?? []).forEach((item, i) => {
    const k = keyOf(item);
    if (seen.has(k)) issues.add(file, `${base}/${i}/${field}`, `duplicate ${field} '${k}' (also at ${base}/${seen.get(k)})`);
    else seen.set(k, i);
  });
}

const cents = (s: string | undefined) => (s === undefined ? undefined : Math.round(Number(s) * 100));
const isIsoDate = (s: string | undefined) => !!s && /^\d{4}-\d{2}-\d{2}/.test(s);

function checkGroup(issues: IssueList, ev: CatalogEvent, g: CatalogGroup, base: string) {
  duplicates(issues, CAT, `${base}/types`, g.types, (t) => t.key);
  const min = g.min_tickets_per_order ?? 0;
  const max = g.max_tickets_per_order ?? -1;
  if (max >= 0 && min > max) issues.add(CAT, `${base}/min_tickets_per_order`, `must not exceed max_tickets_per_order (${min} > ${max})`);
  if (g.handler === 'seated' && !ev.seat_map) issues.add(CAT, `${base}/handler`, `a seated group needs the event to name a seat_map`);
  if (g.handler === 'citypass') {
    for (const { field, message } of citypassSettingsIssues(ev.config?.web?.citypass as CitypassSettings | undefined))
      issues.add(CAT, `${base}/handler`, `${message} (config/web/citypass/${field})`);
  }
  if (g.handler === 'seated' && g.flexible)
    issues.add(CAT, `${base}/flexible`, 'a seated group is sold per session and cannot be flexible');
  if (isIsoDate(g.sales_start) && isIsoDate(g.sales_end) && Date.parse(g.sales_start!) > Date.parse(g.sales_end!)) {
    issues.add(CAT, `${base}/sales_start`, 'must not be after sales_end');
  }
  const spec = g.additional_info_spec;
  for (const [i, name] of (spec?.required ?? []).entries()) {
    if (!spec?.properties?.[name])
      issues.add(CAT, `${base}/additional_info_spec/required/${i}`, `names no question in properties ('${name}')`);
  }
  g.types.forEach((t, ti) => {
    const tp = `${base}/types/${ti}`;
    const [price, lo, hi, disc] = [cents(t.price)!, cents(t.price_min), cents(t.price_max), cents(t.discounted_price)];
    if ((lo === undefined) !== (hi === undefined))
      issues.add(
        CAT,
        `${tp}/${lo === undefined ? 'price_min' : 'price_max'}`,
        'price_min and price_max go together (a flexible price needs both)',
      );
    if (lo !== undefined && hi !== undefined) {
      if (lo > hi) issues.add(CAT, `${tp}/price_min`, `must not exceed price_max (${t.price_min} > ${t.price_max})`);
      else if (price < lo || price > hi)
        issues.add(CAT, `${tp}/price`, `must lie between price_min and price_max (${t.price_min} to ${t.price_max})`);
    }
    if (disc !== undefined && disc > price)
      issues.add(CAT, `${tp}/discounted_price`, `must not exceed price (${t.discounted_price} > ${t.price})`);
  });
  (g.rules ?? []).forEach((r, ri) => {
    const rp = `${base}/rules/${ri}`;
    if (r.ticket_type && !g.types.some((t) => t.key === r.ticket_type))
      issues.add(CAT, `${rp}/ticket_type`, `unknown ticket type '${r.ticket_type}' in group '${g.key}'`);
    if ((r.max ?? -1) >= 0 && (r.min ?? 0) > (r.max ?? -1)) issues.add(CAT, `${rp}/min`, `must not exceed max (${r.min} > ${r.max})`);
  });
}

function checkEvent(issues: IssueList, folder: SellerFolder, idx: KeyIndex, ev: CatalogEvent, i: number) {
  const base = `/events/${i}`;
  const { catalog } = folder;
  if (ev.venue && !catalog.venues.some((v) => v.key === ev.venue)) issues.add(CAT, `${base}/venue`, `unknown venue '${ev.venue}'`);
  if (ev.seat_map && !(catalog.seat_maps ?? []).some((m) => m.key === ev.seat_map))
    issues.add(CAT, `${base}/seat_map`, `unknown seat map '${ev.seat_map}'`);
  for (const field of ['image_profile', 'image_cover'] as const) {
    const key = ev.meta?.[field];
    if (key && !idx.images.has(key)) issues.add(CAT, `${base}/meta/${field}`, `unknown image '${key}' (no images/${key}.* file)`);
  }
  ev.upsell?.anchor_events?.forEach((a, ai) => {
    if (!idx.events.has(a)) issues.add(CAT, `${base}/upsell/anchor_events/${ai}`, `unknown anchor event '${a}'`);
    else if (a === ev.key) issues.add(CAT, `${base}/upsell/anchor_events/${ai}`, 'an event cannot be its own anchor');
  });
  ev.upsell?.anchor_categories?.forEach((c, ci) => {
    if (!idx.categories.has(c)) issues.add(CAT, `${base}/upsell/anchor_categories/${ci}`, `no event has the anchor category '${c}'`);
  });
  if (ev.upsell && ev.upsell.requires_anchor !== false && !ev.upsell.anchor_events?.length && !ev.upsell.anchor_categories?.length) {
    issues.add(CAT, `${base}/upsell`, 'an upsell that requires an anchor must name anchor_events or anchor_categories');
  }
  for (const field of ['primary_ticket_type', 'secondary_ticket_type'] as const) {
    const ref = ev.config?.web?.price_display?.[field];
    if (ref && !idx.type(`${ev.key}/${ref}`))
      issues.add(CAT, `${base}/config/web/price_display/${field}`, `unknown ticket type '${ref}' ('groupKey/typeKey' of this event)`);
  }
  duplicates(issues, CAT, `${base}/ticket_groups`, ev.ticket_groups, (g) => g.key);
  ev.ticket_groups.forEach((g, gi) => checkGroup(issues, ev, g, `${base}/ticket_groups/${gi}`));
  (ev.message_rules ?? []).forEach((rule, ri) => {
    const q = rule.triggers.quantity;
    const rp = `${base}/message_rules/${ri}/triggers/quantity`;
    q?.ticket_groups?.forEach((g, k) => {
      if (!idx.group(`${ev.key}/${g}`)) issues.add(CAT, `${rp}/ticket_groups/${k}`, `unknown ticket group '${g}' in event '${ev.key}'`);
    });
    q?.ticket_types?.forEach((t, k) => {
      if (!idx.type(`${ev.key}/${t}`))
        issues.add(CAT, `${rp}/ticket_types/${k}`, `unknown ticket type '${t}' ('groupKey/typeKey' of this event)`);
    });
    if (q && q.min !== undefined && q.max !== undefined && q.min > q.max)
      issues.add(CAT, `${rp}/min`, `must not exceed max (${q.min} > ${q.max})`);
  });
  (ev.schedules ?? []).forEach((s, si) => {
    const sp = `${base}/schedules/${si}`;
    if (!Array.isArray(s.times) && s.times.end !== '24:00' && s.times.start >= s.times.end)
      issues.add(CAT, `${sp}/times/end`, `must be after start (${s.times.start})`);
    if (isIsoDate(s.dates.from) && isIsoDate(s.dates.to) && s.dates.from > s.dates.to)
      issues.add(CAT, `${sp}/dates/from`, 'must not be after dates.to');
  });
  const sessionGroups = ev.ticket_groups.filter((g) => !g.flexible);
  if (ev.schedules?.length && sessionGroups.length === 0)
    issues.add(CAT, `${base}/schedules`, 'the event has schedules but no ticket group sold per session (all are flexible)');
}

function checkSeatMaps(issues: IssueList, folder: SellerFolder) {
  const maps = folder.catalog.seat_maps ?? [];
  duplicates(issues, CAT, '/seat_maps', maps, (m) => m.key);
  maps.forEach((m, mi) => {
    duplicates(issues, CAT, `/seat_maps/${mi}/sections`, m.sections, (s) => s.key);
    const users = folder.catalog.events.filter((e) => e.seat_map === m.key);
    m.sections.forEach((s, si) =>
      s.ticket_groups?.forEach((g, gi) => {
        if (!users.some((e) => e.ticket_groups.some((x) => x.key === g && x.handler === 'seated'))) {
          issues.add(
            CAT,
            `/seat_maps/${mi}/sections/${si}/ticket_groups/${gi}`,
            `no event using seat map '${m.key}' has a seated ticket group '${g}'`,
          );
        }
      }),
    );
  });
}

function checkMembership(issues: IssueList, folder: SellerFolder, idx: KeyIndex) {
  const { programs = [], roles = [] } = folder.catalog.membership ?? {};
  duplicates(issues, CAT, '/membership/programs', programs, (p) => p.key);
  duplicates(issues, CAT, '/membership/roles', roles, (r) => r.key);
  roles.forEach((r, i) => {
    const base = `/membership/roles/${i}`;
    if (!programs.some((p) => p.key === r.program)) issues.add(CAT, `${base}/program`, `unknown membership program '${r.program}'`);
    const type = idx.type(r.ticket_type);
    if (!type) issues.add(CAT, `${base}/ticket_type`, `unknown ticket type '${r.ticket_type}'`);
    else if (idx.group(r.ticket_type.split('/').slice(0, 2).join('/'))?.handler !== 'membership')
      issues.add(CAT, `${base}/ticket_type`, `'${r.ticket_type}' is not in a ticket group with handler 'membership'`);
    r.benefits?.forEach((b, bi) => {
      if (b.ticket_type !== '*' && !idx.type(b.ticket_type))
        issues.add(CAT, `${base}/benefits/${bi}/ticket_type`, `unknown ticket type '${b.ticket_type}'`);
    });
    r.rules?.forEach((rule, ri) => {
      const rp = `${base}/rules/${ri}`;
      if (rule.ticket_type && !idx.type(rule.ticket_type))
        issues.add(CAT, `${rp}/ticket_type`, `unknown ticket type '${rule.ticket_type}'`);
      if (rule.ticket_group && !idx.group(rule.ticket_group))
        issues.add(CAT, `${rp}/ticket_group`, `unknown ticket group '${rule.ticket_group}'`);
      if (!rule.ticket_type && !rule.ticket_group) issues.add(CAT, rp, 'a membership rule names a ticket_type or a ticket_group');
      if ((rule.max ?? -1) >= 0 && (rule.min ?? 0) > (rule.max ?? -1))
        issues.add(CAT, `${rp}/min`, `must not exceed max (${rule.min} > ${rule.max})`);
    });
  });
  const members = folder.catalog.members ?? [];
  duplicates(issues, CAT, '/members', members, (m) => m.email.toLowerCase(), 'email');
  duplicates(
    issues,
    CAT,
    '/members',
    members.filter((m) => m.membership),
    (m) => m.membership!.scan_code,
    'membership/scan_code',
  );
  members.forEach((m, i) => {
    if (m.membership && !roles.some((r) => r.key === m.membership!.role))
      issues.add(CAT, `/members/${i}/membership/role`, `unknown membership level '${m.membership.role}'`);
  });
}

function checkCommerce(issues: IssueList, folder: SellerFolder, idx: KeyIndex) {
  const mods = folder.catalog.cart_mods ?? [];
  duplicates(issues, CAT, '/cart_mods', mods, (m) => m.key);
  const codes = mods.flatMap((m, mi) =>
    (m.codes ?? []).map((c, ci) => ({ code: c.code.toLowerCase(), at: `/cart_mods/${mi}/codes/${ci}` })),
  );
  const seen = new Map<string, string>();
  for (const c of codes) {
    if (seen.has(c.code))
      issues.add(CAT, `${c.at}/code`, `duplicate promo code '${c.code}' (also at ${seen.get(c.code)}; codes ignore case)`);
    else seen.set(c.code, c.at);
  }
  mods.forEach((m, mi) => {
    m.ticket_types?.forEach((t, ti) => {
      if (!idx.type(t)) issues.add(CAT, `/cart_mods/${mi}/ticket_types/${ti}`, `unknown ticket type '${t}'`);
    });
    if (m.discount_type === 'percent' && (!/^\d+$/.test(m.discount) || Number(m.discount) > 100))
      issues.add(CAT, `/cart_mods/${mi}/discount`, 'a percent discount is a whole number from 0 to 100');
  });
  duplicates(issues, CAT, '/gift_cards', folder.catalog.gift_cards, (g) => `${g.ledger_type ?? 'giftcard'}:${g.number}`, 'number');
}

function checkConfig(issues: IssueList, folder: SellerFolder, idx: KeyIndex) {
  const c = folder.config;
  if (!isValidTimeZone(c.timezone)) issues.add(CFG, '/timezone', `unknown timezone '${c.timezone}'`);
  for (const field of ['admission_event_id', 'membership_event_id', 'checkout_upsell_id']) {
    if (c[field] && !idx.events.has(c[field]))
      issues.add(CFG, `/${field}`, `names no event: '${c[field]}' is not an event key in catalog.json`);
  }
  const tg = c.checkout_donation_tg_id;
  if (tg) {
    const group = /^[^/]+\/[^/]+$/.test(tg) ? idx.group(tg) : undefined;
    if (!group) issues.add(CFG, '/checkout_donation_tg_id', `names no ticket group: '${tg}' (expected 'eventKey/groupKey')`);
    else if (group.handler !== 'donation')
      issues.add(CFG, '/checkout_donation_tg_id', `'${tg}' has handler '${group.handler}', not 'donation'`);
  }
  if (
    c.membership_event_id &&
    idx.events.has(c.membership_event_id) &&
    !idx.events.get(c.membership_event_id)!.ticket_groups.some((g) => g.handler === 'membership')
  ) {
    issues.add(CFG, '/membership_event_id', `event '${c.membership_event_id}' has no ticket group with handler 'membership'`);
  }
  if (c.web?.logo && !idx.images.has(c.web.logo))
    issues.add(CFG, '/web/logo', `unknown image '${c.web.logo}' (no images/${c.web.logo}.* file)`);
  for (const size of ['mobile', 'desktop']) {
    const key = c.web?.completion_image?.[size];
    if (key && !idx.images.has(key)) issues.add(CFG, `/web/completion_image/${size}`, `unknown image '${key}' (no images/${key}.* file)`);
  }
  for (const field of ['anchor_categories', 'upsell_categories']) {
    (c.upsells?.[field] ?? []).forEach((cat: string, i: number) => {
      if (!idx.categories.has(cat)) issues.add(CFG, `/upsells/${field}/${i}`, `no event has the category '${cat}'`);
    });
  }
  (c.web?.event_filters?.categories ?? []).forEach((cat: string, i: number) => {
    if (!idx.categories.has(cat)) issues.add(CFG, `/web/event_filters/categories/${i}`, `no event has the category '${cat}'`);
  });
  for (const issue of layoutIssues(c.layout, new Set(folder.contentBlocks.map((b) => b.name)))) issues.add(CFG, issue.path, issue.message);
}

/** Cross-reference checks the schema cannot express; throws CatalogError listing every problem. */
export function checkSellerFolder(folder: SellerFolder): KeyIndex {
  const issues = new IssueList();
  const idx = new KeyIndex(folder);
  const { catalog } = folder;
  duplicates(issues, CAT, '/venues', catalog.venues, (v) => v.key);
  catalog.venues.forEach((v, i) => {
    if (!isValidTimeZone(v.timezone)) issues.add(CAT, `/venues/${i}/timezone`, `unknown timezone '${v.timezone}'`);
  });
  duplicates(issues, CAT, '/images', catalog.images, (im) => im.key);
  catalog.images?.forEach((im, i) => {
    if (!idx.images.has(im.key)) issues.add(CAT, `/images/${i}/key`, `no file images/${im.key}.* for this image`);
  });
  duplicates(issues, CAT, '/events', catalog.events, (e) => e.key);
  catalog.events.forEach((ev, i) => checkEvent(issues, folder, idx, ev, i));
  checkSeatMaps(issues, folder);
  checkMembership(issues, folder, idx);
  checkCommerce(issues, folder, idx);
  checkConfig(issues, folder, idx);
  issues.throwIfAny();
  return idx;
}
