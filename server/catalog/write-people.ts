import { sql } from 'kysely';
import { chunks, excluded, type Ids, type Tx } from './write-catalog';
import { money, type Plan } from './plan';
import type { SellerFolder } from './types';
import { normaliseGiftCardNumber } from '../../src/domain/gift-card';

const json = (v: unknown) => JSON.stringify(v ?? null);

/** Every seller has one shared public identity that guest carts belong to. */
export async function ensurePublicIdentity(tx: Tx, sellerId: string): Promise<string> {
  const existing = await tx
    .selectFrom('identity')
    .select('id')
    .where('seller_id', '=', sellerId)
    .where('is_public', '=', true)
    .executeTakeFirst();
  const id =
    existing?.id ??
    (
      await tx
        .insertInto('identity')
        .values({
          seller_id: sellerId,
          is_public: true,
          first_name: 'Guest',
          last_name: 'Shopper',
          additional_info: json({}),
          meta: json({}),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  await tx.updateTable('seller').set({ public_identity_id: id }).where('id', '=', sellerId).execute();
  return id;
}

export async function writeMembership(tx: Tx, folder: SellerFolder, ids: Ids): Promise<Map<string, { id: string; programId: string }>> {
  const { programs = [], roles = [] } = folder.catalog.membership ?? {};
  const programIds = new Map<string, string>();
  const roleIds = new Map<string, { id: string; programId: string }>();
  if (programs.length) {
    for (const r of await tx
      .insertInto('membership_program')
      .values(programs.map((p, i) => ({ seller_id: ids.sellerId, key: p.key, name: p.name, _rank: p.rank ?? i })))
      .onConflict((oc) => oc.columns(['seller_id', 'key']).doUpdateSet(excluded(['name', '_rank'])))
      .returning(['id', 'key'])
      .execute())
      programIds.set(r.key, r.id);
  }
  if (!roles.length) return roleIds;
  const typeTarget = (ref: string) => {
    const [e, g] = ref.split('/');
    return { ticket_type_id: ids.types.get(ref)!, ticket_group_id: ids.groups.get(`${e}/${g}`)!, event_template_id: ids.events.get(e)! };
  };
  for (const r of await tx
    .insertInto('role')
    .values(
      roles.map((r, i) => ({
        seller_id: ids.sellerId,
        membership_program_id: programIds.get(r.program)!,
        key: r.key,
        name: r.name,
        _rank: r.rank ?? i,
        ticket_type_id: ids.types.get(r.ticket_type)!,
        duration_months: r.duration_months ?? 12,
        giftable: r.giftable ?? false,
        auto_renew: r.auto_renew ?? false,
        member_event_purchase_limit: r.member_event_purchase_limit ?? -1,
        benefits: json(
          (r.benefits ?? []).map((b) => ({
            ...(b.ticket_type === '*' ? { ticket_type_id: '*' } : typeTarget(b.ticket_type)),
            quantity: b.quantity,
            price: b.price === undefined ? null : money(b.price),
          })),
        ),
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['seller_id', 'key'])
        .doUpdateSet(
          excluded([
            'membership_program_id',
            'name',
            '_rank',
            'ticket_type_id',
            'duration_months',
            'giftable',
            'auto_renew',
            'member_event_purchase_limit',
            'benefits',
          ]),
        ),
    )
    .returning(['id', 'key', 'membership_program_id'])
    .execute())
    roleIds.set(r.key, { id: r.id, programId: r.membership_program_id });

  await tx
    .deleteFrom('membership_rule')
    .where(
      'role_id',
      'in',
      [...roleIds.values()].map((r) => r.id),
    )
    .execute();
  const rules = roles.flatMap((r) =>
    (r.rules ?? []).map((rule) => ({
      seller_id: ids.sellerId,
      role_id: roleIds.get(r.key)!.id,
      ticket_type_id: rule.ticket_type ? ids.types.get(rule.ticket_type)! : null,
      ticket_group_id: rule.ticket_group
        ? ids.groups.get(rule.ticket_group)!
        : rule.ticket_type
          ? typeTarget(rule.ticket_type).ticket_group_id
          : null,
      party_role: rule.party_role ?? 'member',
      named: rule.named ?? 'no',
      min: rule.min ?? 0,
      max: rule.max ?? -1,
    })),
  );
  for (const batch of chunks(rules)) await tx.insertInto('membership_rule').values(batch).execute();
  return roleIds;
}

export async function writeCommerce(tx: Tx, folder: SellerFolder, plan: Plan, ids: Ids) {
  const mods = folder.catalog.cart_mods ?? [];
  const modIds = new Map<string, string>();
  if (mods.length) {
    for (const r of await tx
      .insertInto('cart_mod')
      .values(
        mods.map((m) => ({
          seller_id: ids.sellerId,
          key: m.key,
          name: m.name,
          discount_type: m.discount_type,
          // Percent discounts are whole percents; amount and price discounts are minor units.
          discount_value: m.discount_type === 'percent' ? Number(m.discount) : money(m.discount),
          ticket_type_ids: json((m.ticket_types ?? []).map((t) => ids.types.get(t))),
          blocking_checkout: m.blocking_checkout ?? false,
          activating_code_groups: json(m.activating_code_groups ?? []),
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['seller_id', 'key'])
          .doUpdateSet(
            excluded(['name', 'discount_type', 'discount_value', 'ticket_type_ids', 'blocking_checkout', 'activating_code_groups']),
          ),
      )
      .returning(['id', 'key'])
      .execute())
      modIds.set(r.key, r.id);
  }
  const codes = mods.flatMap((m) =>
    (m.codes ?? []).map((c) => ({
      seller_id: ids.sellerId,
      code: c.code,
      cart_mod_id: modIds.get(m.key)!,
      code_group: c.code_group ?? null,
      max_usage: c.max_usage ?? -1,
      valid_from: plan.instant(c.valid_from),
      valid_to: plan.instant(c.valid_to),
      advertise: c.advertise ?? false,
      is_default: c.is_default ?? false,
    })),
  );
  // `used` is never touched: reloading must not give a code its uses back.
  for (const batch of chunks(codes)) {
    await tx
      .insertInto('promo_code')
      .values(batch)
      .onConflict((oc) =>
        oc
          .expression(sql`seller_id, lower(code)`)
          .doUpdateSet(excluded(['code', 'cart_mod_id', 'code_group', 'max_usage', 'valid_from', 'valid_to', 'advertise', 'is_default'])),
      )
      .execute();
  }
  for (const g of folder.catalog.gift_cards ?? []) {
    // Created once: a balance spent by purchases is never reset by a reload.
    const created = await tx
      .insertInto('ledger')
      .values({
        seller_id: ids.sellerId,
        ledger_type: g.ledger_type ?? 'giftcard',
        // Kept in upper case: a card is found by its number as typed, trimmed and in upper case (issue 13).
        number: normaliseGiftCardNumber(g.number),
        balance: money(g.balance),
        state: g.state ?? 'active',
        currency: folder.config.default_currency_code,
      })
      .onConflict((oc) => oc.columns(['seller_id', 'ledger_type', 'number']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (created && money(g.balance) > 0) {
      await tx
        .insertInto('ledger_entry')
        .values({ ledger_id: created.id, amount: money(g.balance), reason: 'issued' })
        .execute();
    }
  }
}

export async function writeMembers(
  tx: Tx,
  folder: SellerFolder,
  plan: Plan,
  ids: Ids,
  roles: Map<string, { id: string; programId: string }>,
  passwordHashes: Map<string, string>,
) {
  const roleDefs = folder.catalog.membership?.roles ?? [];
  for (const m of folder.catalog.members ?? []) {
    const person = {
      first_name: m.first_name,
      last_name: m.last_name,
      email: m.email,
      phone: m.phone ?? null,
      zip_code: m.zip_code ?? null,
      city: m.city ?? null,
      state: m.state ?? null,
      country: m.country ?? null,
    };
    const user = await tx
      .selectFrom('app_user')
      .select(['id', 'identity_id'])
      .where('seller_id', '=', ids.sellerId)
      .where(sql`lower(email)`, '=', m.email.toLowerCase())
      .executeTakeFirst();
    let identityId: string;
    if (user) {
      identityId = user.identity_id;
      await tx.updateTable('identity').set(person).where('id', '=', identityId).execute();
    } else {
      identityId = (
        await tx
          .insertInto('identity')
          .values({ seller_id: ids.sellerId, ...person, additional_info: json({}), meta: json({}) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      await tx
        .insertInto('app_user')
        .values({
          seller_id: ids.sellerId,
          identity_id: identityId,
          email: m.email,
          password_hash: passwordHashes.get(m.email.toLowerCase()) ?? null,
        })
        .execute();
    }
    if (!m.membership) continue;
    const role = roles.get(m.membership.role)!;
    const def = roleDefs.find((r) => r.key === m.membership!.role)!;
    const [e, g] = def.ticket_type.split('/');
    await tx
      .insertInto('membership')
      .values({
        seller_id: ids.sellerId,
        identity_id: identityId,
        role_id: role.id,
        membership_program_id: role.programId,
        ticket_group_id: ids.groups.get(`${e}/${g}`)!,
        event_template_id: ids.events.get(e)!,
        scan_code: m.membership.scan_code,
        zip_code: m.zip_code ?? null,
        valid_from: plan.instant(m.membership.valid_from)!,
        valid_to: plan.instant(m.membership.valid_to)!,
        auto_renew_state: m.membership.auto_renew_state ?? 'other',
        member_event_purchase_limit: def.member_event_purchase_limit ?? -1,
      })
      .onConflict((oc) =>
        oc
          .columns(['seller_id', 'scan_code'])
          .doUpdateSet(
            excluded([
              'identity_id',
              'role_id',
              'membership_program_id',
              'ticket_group_id',
              'event_template_id',
              'zip_code',
              'valid_from',
              'valid_to',
              'auto_renew_state',
              'member_event_purchase_limit',
            ]),
          ),
      )
      .execute();
  }
}

/** config.json as stored: event, group and image keys replaced by database ids (the GET config contract), and the
 *  references the ids do not hold (a running server's watch applies a folder only when there are none). */
export function storedConfig(folder: SellerFolder, ids: Ids): { config: Record<string, any>; missing: string[] } {
  const config: Record<string, any> = structuredClone(folder.config);
  const missing: string[] = [];
  const resolve = (map: Map<string, string>, key: string, what: string) => {
    const id = map.get(key);
    if (!id) missing.push(`${what} '${key}'`);
    return id;
  };
  delete config.$schema;
  for (const field of ['admission_event_id', 'membership_event_id', 'checkout_upsell_id']) {
    if (config[field]) config[field] = resolve(ids.events, config[field], 'event');
  }
  if (config.checkout_donation_tg_id) config.checkout_donation_tg_id = resolve(ids.groups, config.checkout_donation_tg_id, 'ticket group');
  if (config.web?.logo) config.web.logo = resolve(ids.images, config.web.logo, 'image');
  for (const size of ['mobile', 'desktop'] as const) {
    const key = config.web?.completion_image?.[size];
    if (key) config.web.completion_image[size] = resolve(ids.images, key, 'image');
  }
  return { config, missing };
}

export async function writeConfig(tx: Tx, folder: SellerFolder, ids: Ids) {
  const { config } = storedConfig(folder, ids);
  await tx
    .updateTable('seller')
    .set({ config: json(config), updated_at: new Date() })
    .where('id', '=', ids.sellerId)
    .execute();
}
