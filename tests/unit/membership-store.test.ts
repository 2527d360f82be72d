import { observable, runInAction } from 'mobx';
import { describe, expect, it, vi } from 'vitest';
import type { MembershipRow } from '../../src/contract/account';
import { MembershipStore } from '../../src/stores/MembershipStore';
import { ReservationStore } from '../../src/stores/ReservationStore';
import { dayRow, groupRow, reservableEvent, sessionRow, typeRow } from '../helpers/catalogue-rows';

const NOW = new Date('2026-11-22T12:00:00Z');
const DAY = 86_400_000;
const TZ = 'America/New_York';

/** The demo's Family level: 6 free Member Admissions, a shared pool of 2, at most 8 member tickets a visit. */
function family(over: Partial<MembershipRow> = {}): MembershipRow {
  const from = new Date(NOW.getTime() - DAY).toISOString();
  const to = new Date(NOW.getTime() + 300 * DAY).toISOString();
  return {
    id: 'm1',
    scan_code: 'ABCDEFGHIJ',
    role_id: 'r1',
    membership_program_id: 'p1',
    state: 'active',
    auto_renew_state: 'scheduled',
    valid_from: from,
    valid_to: to,
    validFrom: from,
    validTo: to,
    member_event_purchase_limit: 8,
    ticket_order_id: null,
    ticket_id: null,
    ticket_group_id: null,
    event_template_id: null,
    identity_id: null,
    benefits: [
      { ticket_type_id: 'member', quantity: 6, price: 0 },
      { ticket_type_id: 'guest', quantity: 1, price: 500 },
      { ticket_type_id: '*', quantity: 2 },
    ],
    members: [],
    ...over,
  };
}

type Item = { event_session_id: string | null; types: Array<{ ticket_type_id: string; ticketCount: number }> };

function makeStore(opts: { memberships?: MembershipRow[]; loggedIn?: boolean; items?: Item[] } = {}) {
  const session = observable({ isLoggedIn: opts.loggedIn ?? true, memberships: opts.memberships ?? [family()] });
  const cart = observable({ items: opts.items ?? [] });
  return { store: new MembershipStore({ session, cart, now: () => NOW }), session, cart };
}

describe('MembershipStore (root): the current member, their prices and the room a session has left', () => {
  it('the current membership and its benefit types; none when logged out or when every term has ended', () => {
    const { store, session } = makeStore({ memberships: [family({ id: 'old', valid_to: '2025-01-01T00:00:00Z' }), family()] });
    expect(store.current?.id).toBe('m1');
    expect(store.isActiveMember).toBe(true);
    expect(store.benefitTypeIds).toEqual(['guest', 'member']);
    runInAction(() => (session.isLoggedIn = false));
    expect(store.current).toBeNull();
    expect(store.benefitTypeIds).toBeNull();
    expect(makeStore({ memberships: [family({ valid_to: '2025-01-01T00:00:00Z' })] }).store.isActiveMember).toBe(false);
  });

  it("prices a members-only type at the benefit's price, and leaves a public type's price alone", () => {
    const { store } = makeStore();
    expect(store.memberPrice({ id: 'member', member_only: true }, { hidden_type: 'public_browsable' })).toBe(0);
    expect(store.memberPrice({ id: 'guest', member_only: false }, { hidden_type: 'public_member_only' })).toBe(500);
    expect(store.memberPrice({ id: 'member', member_only: false }, { hidden_type: 'public_browsable' })).toBeNull();
    expect(makeStore({ loggedIn: false }).store.memberPrice({ id: 'member', member_only: true }, { hidden_type: 'x' })).toBeNull();
  });

  it("counts the cart's member tickets of the same session into the room left: own quantity, then the pool, within the limit", () => {
    const { store, cart } = makeStore();
    // nothing held: 6 own + 2 pool, but the limit is 8 in all
    expect(store.roomFor('s1', {})).toEqual({ member: 8, guest: 3 });
    expect(store.roomFor('s1', { member: 6 })).toEqual({ member: 2, guest: 2 });
    runInAction(() => {
      cart.items = [
        {
          event_session_id: 's1',
          types: [
            { ticket_type_id: 'member', ticketCount: 5 },
            { ticket_type_id: 'adult', ticketCount: 2 },
          ],
        },
        { event_session_id: 's2', types: [{ ticket_type_id: 'member', ticketCount: 8 }] },
      ];
    });
    expect(store.heldInCart('s1')).toEqual({ member: 5 });
    // 5 held in s1: 1 own + 2 pool left for Member Admission, the limit leaves 3
    expect(store.roomFor('s1', {})).toEqual({ member: 3, guest: 3 });
    expect(store.roomFor('s1', { member: 2, guest: 1 })).toEqual({ member: 0, guest: 0 });
    // another session's tickets count against that session only
    expect(store.roomFor('s2', {})).toEqual({ member: 0, guest: 0 });
    expect(store.roomFor('s3', {})).toEqual({ member: 8, guest: 3 });
    expect(makeStore({ loggedIn: false }).store.roomFor('s1', {})).toEqual({});
  });
});

describe('the reservation flow reads its member caps from the root MembershipStore', () => {
  it('stops the Member Admission stepper where the benefits end, counting what the cart already holds for the session', async () => {
    const members = groupRow('members', { hidden_type: 'public_member_only', max_tickets_per_order: 20 });
    const types = [typeRow('member', 'members', { member_only: true })];
    const data = reservableEvent(TZ, [members], types);
    const { store: member } = makeStore({
      items: [{ event_session_id: 's1', types: [{ ticket_type_id: 'member', ticketCount: 6 }] }],
    });
    const flow = new ReservationStore({
      api: {
        getEvent: vi.fn(async () => data),
        getCalendar: vi.fn(async () => [dayRow('2026-11-22')]),
        getSessions: vi.fn(async () => [sessionRow('s1', '2026-11-22T15:00:00Z'), sessionRow('s2', '2026-11-22T16:00:00Z')]),
        getSession: vi.fn(async (_e: string, sid: string) => ({
          session: sessionRow(sid, '2026-11-22T15:00:00Z', { availableCapacity: 50 }),
          groups: [members],
          types,
        })),
      },
      cart: { reserve: vi.fn(async () => {}) },
      eventId: 'e1',
      timezone: TZ,
      now: () => NOW,
      member,
    });
    await flow.load();
    await flow.selectDate('2026-11-22');
    await flow.selectSession('s1');
    // 6 already in the cart for s1: the pool's 2 are left
    for (let i = 0; i < 5; i++) flow.increment(members, 'member');
    expect(flow.count('member')).toBe(2);
    expect(flow.canIncrement(members, 'member')).toBe(false);
    // the other session holds none: 8 there
    await flow.selectSession('s2');
    for (let i = 0; i < 10; i++) flow.increment(members, 'member');
    expect(flow.count('member')).toBe(8);
    // the member's own price
    expect(flow.subtotal.lines[0]).toMatchObject({ value: 0 });
  });
});
