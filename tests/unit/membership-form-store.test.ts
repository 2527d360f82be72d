import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors';
import type { MembershipRow, RoleRow } from '../../src/contract/account';
import type { TicketTypeRow } from '../../src/contract/catalogue';
import type { MembershipRuleRow } from '../../src/contract/membership';
import { memberSettings } from '../../src/domain/membership';
import { renewFrom } from '../../src/domain/membership-form';
import { membershipTarget } from '../../src/domain/membership-routes';
import { currentBenefits, memberBenefitTypes } from '../../src/domain/member-benefits';
import { buyableType, isMembersOnlyEvent } from '../../src/domain/reservable-groups';
import { MembershipFormStore, type MembershipFormStoreDeps } from '../../src/stores/MembershipFormStore';
import { CancelAutoRenewStore, RedeemStore, type MembershipActionsApi } from '../../src/stores/MembershipActionsStore';
import { readMembershipIntent, type IntentStorage } from '../../src/stores/membership-intent';
import type { MemberLine } from '../../src/domain/membership-form';

/** The demo's three levels (sellers/demo): Individual (1 named), Dual (2 named, giftable), Family (1-2 named, 0-4 children). */
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const TYPE = { individual: uuid(1), dual: uuid(2), family: uuid(3) };
const ROLE = { individual: uuid(11), dual: uuid(12), family: uuid(13) };
const type = (id: string, name: string, price: string, rank: number) =>
  ({
    id,
    name,
    _rank: rank,
    summary: null,
    currency_amount: price,
    ticket_group_id: uuid(99),
    member_only: false,
  }) as unknown as TicketTypeRow;
const role = (id: string, name: string, typeId: string, giftable: boolean) =>
  ({ id, name, _rank: 0, ticket_type_id: typeId, giftable, membership_program_id: uuid(50) }) as unknown as RoleRow;
const rule = (roleId: string, party_role: string, named: 'yes' | 'no' | 'optional', min: number, max: number) =>
  ({
    id: uuid(Math.floor(Math.random() * 1e6)),
    role_id: roleId,
    ticket_type_id: null,
    ticket_group_id: null,
    party_role,
    named,
    min,
    max,
  }) as MembershipRuleRow;

const TYPES = [
  type(TYPE.individual, 'Individual', '75.00', 0),
  type(TYPE.dual, 'Dual', '120.00', 1),
  type(TYPE.family, 'Family', '180.00', 2),
];
const RULES = {
  membership_rule: {
    _data: [
      rule(ROLE.individual, 'member', 'yes', 1, 1),
      rule(ROLE.dual, 'member', 'yes', 2, 2),
      rule(ROLE.family, 'member', 'yes', 1, 2),
      rule(ROLE.family, 'child', 'no', 0, 4),
    ],
    _count: 4,
  },
  role: {
    _data: [
      role(ROLE.individual, 'Individual', TYPE.individual, false),
      role(ROLE.dual, 'Dual', TYPE.dual, true),
      role(ROLE.family, 'Family', TYPE.family, false),
    ],
    _count: 3,
  },
};
const NOW = new Date('2026-05-04T13:00:00Z');
const DAY = 86_400_000;

function memoryStorage(): IntentStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

function membership(validTo: Date, members = [{ party_role: 'member', name: 'Mia Member' }]): MembershipRow {
  return {
    id: uuid(70),
    role_id: ROLE.individual,
    valid_from: new Date(validTo.getTime() - 365 * DAY).toISOString(),
    valid_to: validTo.toISOString(),
    members,
  } as unknown as MembershipRow;
}

function makeStore(
  opts: Partial<MembershipFormStoreDeps> & { memberships?: MembershipRow[]; email?: string; reserveError?: ApiError } = {},
) {
  const reserved: MemberLine[][] = [];
  const infos: Array<Record<string, unknown> | undefined> = [];
  const giftees: unknown[] = [];
  const intents = memoryStorage();
  const cart = {
    cartId: null as string | null,
    isEmpty: true,
    items: [] as Array<{ isMembershipEvent: boolean }>,
    async reserve(lines: MemberLine[], info?: Record<string, unknown>) {
      if (opts.reserveError) throw opts.reserveError;
      reserved.push(lines);
      infos.push(info);
      cart.cartId = 'cart-1';
    },
  };
  const loggedIn = Boolean(opts.memberships || opts.email);
  const store = new MembershipFormStore({
    api: {
      getRules: async () => RULES as never,
      postGiftee: async (body) => {
        giftees.push(body);
        return 'giftee-identity';
      },
    },
    cart,
    session: {
      isLoggedIn: loggedIn,
      memberships: opts.memberships ?? [],
      user: loggedIn ? { email: opts.email ?? 'me@example.org' } : null,
    },
    types: TYPES,
    settings: memberSettings({ membership: { ask_to_autorenew: true, renewal_period_days: 60 } }),
    timezone: 'America/New_York',
    now: () => NOW,
    intents,
    ...opts,
  });
  return { store, reserved, infos, giftees, intents, cart };
}

describe('MembershipFormStore: the buy-membership form', () => {
  it('offers the levels in rank order; no level chosen: "Please select a membership to continue"', async () => {
    const { store, reserved } = makeStore();
    await store.load();
    expect(store.state).toBe('ready');
    expect(store.mode).toBe('buy');
    expect(store.shownLevels.map((l) => l.name)).toEqual(['Individual', 'Dual', 'Family']);
    expect(store.selectedLevel).toBeNull();
    expect(await store.submit()).toBe(false);
    expect(store.notice).toEqual({ key: 'membership.form.selectLevel' });
    expect(reserved).toHaveLength(0);
  });

  it('a single level is chosen by itself', async () => {
    const { store } = makeStore({ types: [TYPES[0]] });
    await store.load();
    expect(store.selectedLevel?.name).toBe('Individual');
  });

  it('Family: 1-2 named members and 0-4 unnamed children; names required; lines per member with party roles', async () => {
    const { store, reserved, intents } = makeStore();
    await store.load();
    store.selectLevel(TYPE.family);
    const [members, children] = store.rules;
    expect(store.count('member')).toBe(1);
    expect(store.count('child')).toBe(0);
    expect(store.canDecrement(members)).toBe(false);
    store.increment(members);
    store.increment(members);
    expect(store.count('member')).toBe(2);
    for (let i = 0; i < 6; i++) store.increment(children);
    expect(store.count('child')).toBe(4);
    expect(await store.submit()).toBe(false);
    expect(store.notice).toEqual({ key: 'membership.form.fixFields' });
    expect(store.nameError(members, 0)).toBe('membership.form.errors.nameRequired');
    store.setName('member:0', '  Ann   Adult ');
    store.setName('member:1', 'Bob');
    store.setAutoRenew(true);
    expect(await store.submit()).toBe(true);
    expect(reserved[0]).toEqual([
      { event_session_id: null, ticket_type_id: TYPE.family, party_role: 'member', admit_name: 'Ann Adult' },
      { event_session_id: null, ticket_type_id: TYPE.family, party_role: 'member', admit_name: 'Bob Bob' },
      ...Array.from({ length: 4 }, () => ({ event_session_id: null, ticket_type_id: TYPE.family, party_role: 'child' })),
    ]);
    expect(readMembershipIntent(intents, 'cart-1')).toEqual({ autoRenew: true });
  });

  it('changing level resets auto-renew to no; a cart holding a membership asks to act on it first', async () => {
    const { store, cart, reserved } = makeStore();
    await store.load();
    store.selectLevel(TYPE.individual);
    store.setAutoRenew(true);
    store.selectLevel(TYPE.dual);
    expect(store.autoRenew).toBe(false);
    cart.items = [{ isMembershipEvent: true }];
    cart.isEmpty = false;
    expect(await store.submit()).toBe(false);
    expect(store.notice).toEqual({ key: 'membership.form.cartHasMembership' });
    expect(reserved).toHaveLength(0);
  });

  it("the membership group's survey: required questions hold the submit; the answers go with the reserve, keyed by the group", async () => {
    const group = {
      id: 'levels-group',
      additional_info_spec: {
        required: ['card'],
        properties: { card: { type: 'string', title: 'Membership card', enum: ['Digital', 'Printed'] }, note: { type: 'string' } },
      },
    };
    const { store, reserved, infos } = makeStore({ group } as Partial<MembershipFormStoreDeps>);
    await store.load();
    store.selectLevel(TYPE.individual);
    store.setName('member:0', 'Ada Lovelace');
    expect(store.survey?.groupId).toBe('levels-group');
    expect(await store.submit()).toBe(false);
    expect(store.notice).toEqual({ key: 'membership.form.fixFields' });
    store.setSurveyAnswers({ card: 'Printed', note: '  ' });
    // The form's own validation (a pattern, a format) can still hold it.
    expect(await store.submit(false)).toBe(false);
    expect(await store.submit()).toBe(true);
    expect(reserved).toHaveLength(1);
    expect(infos).toEqual([{ 'levels-group': { card: 'Printed' } }]);
  });

  it('a group without questions asks none and sends no additional info', async () => {
    const { store, infos } = makeStore({ group: { id: 'g', additional_info_spec: null } } as Partial<MembershipFormStoreDeps>);
    await store.load();
    store.selectLevel(TYPE.individual);
    store.setName('member:0', 'Ada Lovelace');
    expect(store.survey).toBeNull();
    expect(await store.submit()).toBe(true);
    expect(infos).toEqual([undefined]);
  });

  it("shows the server's refusal with the spec's text", async () => {
    const { store } = makeStore({ reserveError: new ApiError(409, 'member_limit_exceeded', '') });
    await store.load();
    store.selectLevel(TYPE.individual);
    store.setName('member:0', 'Ivy');
    expect(await store.submit()).toBe(false);
    expect(store.notice?.key).toBe('reserve.errors.memberLimit');
  });

  it('renew: previous level, counts and names prefilled; outside the window the renew-from date blocks it', async () => {
    const far = makeStore({ memberships: [membership(new Date(NOW.getTime() + 200 * DAY))] });
    await far.store.load();
    expect(far.store.mode).toBe('renew');
    expect(far.store.selectedLevel?.name).toBe('Individual');
    expect(far.store.names['member:0']).toBe('Mia Member');
    expect(far.store.previousLevelName).toBe('Individual');
    expect(far.store.renewFromLabel).toBe('Monday, September 21, 2026');
    expect(await far.store.submit()).toBe(false);
    expect(far.store.notice).toEqual({ key: 'membership.errors.renewalNotOpen', params: { date: 'Monday, September 21, 2026' } });

    const near = makeStore({ memberships: [membership(new Date(NOW.getTime() + 30 * DAY))] });
    await near.store.load();
    expect(near.store.renewFromLabel).toBeNull();
    expect(await near.store.submit()).toBe(true);
    expect(near.reserved[0]).toEqual([
      { event_session_id: null, ticket_type_id: TYPE.individual, party_role: 'member', admit_name: 'Mia Member' },
    ]);
  });

  it('gift: giftable levels only, recipient required, gifting to yourself refused, a guest with an empty cart asked to log in or go on as a guest', async () => {
    const self = makeStore({ action: 'gift', email: 'me@example.org' });
    await self.store.load();
    expect(self.store.mode).toBe('gift');
    expect(self.store.asksAutoRenew).toBe(false);
    expect(self.store.shownLevels.map((l) => l.name)).toEqual(['Dual']);
    expect(self.store.selectedLevel?.name).toBe('Dual');
    self.store.setName('member:0', 'Gia Giftee');
    self.store.setName('member:1', 'Gil Giftee');
    expect(await self.store.submit()).toBe(false);
    expect(self.store.notice).toEqual({ key: 'membership.form.fixFields' });
    self.store.setRecipient('first_name', 'Me');
    self.store.setRecipient('last_name', 'Myself');
    self.store.setRecipient('email', 'ME@example.org');
    expect(await self.store.submit()).toBe(false);
    expect(self.store.notice).toEqual({ key: 'membership.errors.giftToSelfForm' });

    const guest = makeStore({ action: 'gift' });
    await guest.store.load();
    guest.store.setName('member:0', 'Gia Giftee');
    guest.store.setName('member:1', 'Gil Giftee');
    guest.store.setRecipient('first_name', 'Gia');
    guest.store.setRecipient('last_name', 'Giftee');
    guest.store.setRecipient('email', 'gia@example.org');
    expect(await guest.store.submit()).toBe(false);
    expect(guest.store.dialog).toBe('login-or-guest');
    expect(await guest.store.continueAsGuest()).toBe(true);
    expect(guest.giftees).toEqual([{ first_name: 'Gia', last_name: 'Giftee', email: 'gia@example.org' }]);
    expect(readMembershipIntent(guest.intents, 'cart-1')).toEqual({ gifteeIdentityId: 'giftee-identity' });
  });
});

describe('membership routes and windows', () => {
  it('/membership/{action}: external URL plus action, else the membership event, else unavailable', () => {
    expect(membershipTarget({ external_urls: { membership: 'https://join.example.org/' }, membership_event_id: 'm' }, 'renew')).toEqual({
      kind: 'external',
      url: 'https://join.example.org/renew',
    });
    expect(membershipTarget({ membership_event_id: 'membership' }, 'gift')).toEqual({ kind: 'event', path: '/events/membership/gift' });
    expect(membershipTarget({ membership_event_id: 'membership' })).toEqual({ kind: 'event', path: '/events/membership' });
    expect(membershipTarget({})).toEqual({ kind: 'unavailable' });
  });

  it('renewal opens renewal_period_days before the end', () => {
    const end = new Date(NOW.getTime() + 60 * DAY);
    expect(renewFrom(end, 60, NOW)).toBeNull();
    expect(renewFrom(end, 59, NOW)?.toISOString()).toBe(new Date(NOW.getTime() + DAY).toISOString());
  });
});

describe('redeem and cancel auto-renew', () => {
  const api = (over: Partial<MembershipActionsApi> = {}): MembershipActionsApi => ({
    getGiftCode: async (code) => ({
      code,
      role_id: ROLE.dual,
      valid_from: '2026-01-01T00:00:00Z',
      valid_to: '2027-01-01T00:00:00Z',
      exhausted: false,
    }),
    redeem: async () => membership(new Date(NOW.getTime() + 365 * DAY)),
    cancelAutoRenew: async () => membership(new Date(NOW.getTime() + 365 * DAY)),
    ...over,
  });

  it("a code must be 10 characters; expired and redeemed codes say so in the spec's words; a good one is redeemed", async () => {
    const short = new RedeemStore({ api: api(), initialCode: '12345', now: () => NOW });
    expect(await short.check()).toBe(false);
    expect(short.message).toBe('membership.errors.codeInvalid');
    const missing = new RedeemStore({
      api: api({ getGiftCode: async () => Promise.reject(new ApiError(404, 'not_found', '')) }),
      initialCode: '0000000000',
    });
    expect(await missing.check()).toBe(false);
    expect(missing.message).toBe('membership.errors.codeInvalid');
    const expired = new RedeemStore({
      api: api({
        getGiftCode: async (code) => ({
          code,
          role_id: ROLE.dual,
          valid_from: '2025-01-01T00:00:00Z',
          valid_to: '2026-01-01T00:00:00Z',
          exhausted: false,
        }),
      }),
      initialCode: '1234567890',
      now: () => NOW,
    });
    expect(await expired.check()).toBe(false);
    expect(expired.message).toBe('membership.errors.codeExpired');
    const used = new RedeemStore({
      api: api({ redeem: async () => Promise.reject(new ApiError(409, 'gift_code_exhausted', '')) }),
      initialCode: '1234567890',
      now: () => NOW,
    });
    expect(await used.redeem()).toBe(false);
    expect(used.message).toBe('membership.errors.codeRedeemed');
    let refreshed = 0;
    const good = new RedeemStore({ api: api(), initialCode: ' 1234567890 ', now: () => NOW, onRedeemed: () => void refreshed++ });
    expect(await good.redeem()).toBe(true);
    expect([good.state, refreshed]).toEqual(['redeemed', 1]);
  });

  it('cancel auto-renew: done, or not enrolled', async () => {
    const ok = new CancelAutoRenewStore(api(), 'order-1');
    await ok.confirm();
    expect(ok.state).toBe('done');
    const not = new CancelAutoRenewStore(
      api({ cancelAutoRenew: async () => Promise.reject(new ApiError(409, 'auto_renew_not_scheduled', '')) }),
      'order-1',
    );
    await not.confirm();
    expect([not.state, not.message]).toEqual(['error', 'membership.errors.autoRenewNotEnrolled']);
  });
});

describe('member benefits in the event detail (spec section 6)', () => {
  const group = (hidden_type: string) => ({ hidden_type }) as never;
  it("a members-only group or type shows to a current member, and only the types of the membership's benefits", () => {
    const member = new Set([uuid(1)]);
    expect(buyableType(group('public_browsable'), { id: uuid(2), member_only: false }, null)).toBe(true);
    expect(buyableType(group('public_member_only'), { id: uuid(1), member_only: true }, null)).toBe(false);
    expect(buyableType(group('public_member_only'), { id: uuid(1), member_only: true }, member)).toBe(true);
    expect(buyableType(group('public_member_only'), { id: uuid(3), member_only: true }, member)).toBe(false);
    expect(isMembersOnlyEvent({ hidden_type: 'public_member_only' }, [])).toBe(true);
    expect(isMembersOnlyEvent({ hidden_type: 'public_browsable' }, [group('public_member_only')])).toBe(true);
    expect(isMembersOnlyEvent({ hidden_type: 'public_browsable' }, [group('public_member_only'), group('public_browsable')])).toBe(false);
  });

  it('the benefit types of the current memberships only (the wildcard pool names no type); none when logged out', () => {
    const current = {
      valid_from: new Date(NOW.getTime() - DAY).toISOString(),
      valid_to: new Date(NOW.getTime() + DAY).toISOString(),
      benefits: [{ ticket_type_id: uuid(2) }, { ticket_type_id: uuid(1) }, { ticket_type_id: '*' }],
    };
    const past = { valid_from: '2020-01-01T00:00:00Z', valid_to: '2021-01-01T00:00:00Z', benefits: [{ ticket_type_id: uuid(9) }] };
    expect(memberBenefitTypes([current, past], NOW, true)).toEqual([uuid(1), uuid(2)]);
    expect(memberBenefitTypes([past], NOW, true)).toBeNull();
    expect(memberBenefitTypes([current], NOW, false)).toBeNull();
  });
});

describe('member stepper caps', () => {
  it('the first current membership gives its benefits and per-event limit; none for a past one', () => {
    const current = {
      valid_from: new Date(NOW.getTime() - DAY).toISOString(),
      valid_to: new Date(NOW.getTime() + DAY).toISOString(),
      member_event_purchase_limit: 8,
      benefits: [{ ticket_type_id: uuid(1), quantity: 6, price: '0.00' }, { ticket_type_id: '*', quantity: 2 }, 'junk'],
    };
    expect(currentBenefits([current], NOW, true)).toEqual({
      benefits: [
        { ticket_type_id: uuid(1), quantity: 6 },
        { ticket_type_id: '*', quantity: 2 },
      ],
      limit: 8,
    });
    expect(currentBenefits([{ ...current, valid_to: '2020-01-01T00:00:00Z' }], NOW, true)).toBeNull();
  });
});
