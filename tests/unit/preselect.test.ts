import { describe, expect, it, vi } from 'vitest';
import { groupRow, sessionRow, typeRow } from '../helpers/catalogue-rows';
import { findType, hasPreselection, parsePreselection } from '../../src/domain/preselect';
import type { ReservableEvent, SessionRow, TicketTypeRow } from '../../src/api/events';
import { ReservationStore, type ReservationApi } from '../../src/stores/ReservationStore';

const parse = (q: string) => parsePreselection(new URLSearchParams(q));

describe('parsePreselection', () => {
  it('reads date, session, quantities, group filter, select, price and reserve', () => {
    expect(parse('date=2026-12-01&quantity=Adult:2,t-1:1&tg=g1,g2&select=Pass&price=25.50&reserve=warn')).toEqual({
      date: '2026-12-01',
      quantities: [
        { type: 'Adult', count: 2 },
        { type: 't-1', count: 1 },
      ],
      groupIds: ['g1', 'g2'],
      select: 'Pass',
      price: '25.50',
      reserve: 'warn',
    });
    expect(parse('session=next&reserve=1')).toEqual({ session: 'next', quantities: [], reserve: 'on' });
    expect(parse('reserve=strict').reserve).toBe('strict');
    expect(parse('reserve=false').reserve).toBe('off');
    expect(parse('reserve=0').reserve).toBe('off');
  });

  it('session and date together are a conflict; bad dates and counts are ignored', () => {
    expect(parse('session=s1&date=2026-12-01').conflict).toBe('sessionAndDate');
    expect(parse('date=tomorrow').date).toBeUndefined();
    expect(parse('quantity=Adult:-1,Child:x,Senior:2.5,Youth:1001,Pass').quantities).toEqual([{ type: 'Pass', count: 1 }]);
    expect(hasPreselection(parse(''))).toBe(false);
    expect(hasPreselection(parse('utm_source=mail'))).toBe(false);
    expect(hasPreselection(parse('quantity=Adult:1'))).toBe(true);
  });

  it('a type is found by id, then by name without regard to case', () => {
    const types = [
      { id: 'a1', name: 'Adult' },
      { id: 'c1', name: 'Child ' },
    ];
    expect(findType(types, 'c1')?.id).toBe('c1');
    expect(findType(types, 'adult')?.id).toBe('a1');
    expect(findType(types, 'CHILD')?.id).toBe('c1');
    expect(findType(types, 'Senior')).toBeUndefined();
  });
});

const TZ = 'America/New_York';
const group = groupRow;
const type = (id: string, groupId: string, over: Partial<TicketTypeRow> = {}) =>
  typeRow(id, groupId, { name: id[0].toUpperCase() + id.slice(1), ...over });
const session = sessionRow;

/** A timed event on two days (sessions at 10:00 and 11:00 New York time), with a second group for the tg filter. */
function flow(opts: { reserveFails?: boolean; anchorStart?: string } = {}) {
  const groups = [group('timed'), group('tour', { _rank: 1 })];
  const types = [type('adult', 'timed'), type('child', 'timed'), type('guide', 'tour')];
  const byDate: Record<string, SessionRow[]> = {
    '2026-11-22': [session('s1', '2026-11-22T15:00:00Z', { sold_out: true, availableCapacity: 0 }), session('s2', '2026-11-22T16:00:00Z')],
    '2026-11-23': [session('s3', '2026-11-23T15:00:00Z')],
  };
  const all = Object.values(byDate).flat();
  const data = {
    event: { id: 'e1', name: 'GA' },
    venue: { id: 'v', name: 'V', timezone: TZ },
    groups,
    types,
    messageRules: [],
    ticketRules: [],
  } as unknown as ReservableEvent;
  const api: ReservationApi = {
    getEvent: vi.fn(async () => data),
    getCalendar: vi.fn(async () =>
      Object.keys(byDate).map((date) => ({
        date,
        enabled: true,
        status: 'available' as const,
        price: '10.00',
        min_price: '10.00',
        min_price_fees: { outside: null },
        pricePrefix: null,
      })),
    ),
    getSessions: vi.fn(async (_e: string, date: string) => byDate[date] ?? []),
    getSession: vi.fn(async (_e: string, sid: string) => {
      const found = all.find((s) => s.id === sid);
      if (!found) throw new Error('404');
      return { session: found, groups, types };
    }),
  };
  const cart = {
    reserve: vi.fn(async () => {
      if (opts.reserveFails) throw new Error('boom');
    }),
    anchorStart: opts.anchorStart ?? null,
  };
  const store = new ReservationStore({ api, cart, eventId: 'e1', timezone: TZ, now: () => new Date('2026-11-23T12:00:00Z') });
  return { store, cart, api };
}

const run = async (q: string, opts?: { reserveFails?: boolean }) => {
  const ctx = flow(opts);
  await ctx.store.load();
  const reserved = await ctx.store.preselect(parse(q));
  return { ...ctx, reserved };
};

describe('ReservationStore.preselect', () => {
  it('a session id chooses its date and the session, sets the quantities and reserves', async () => {
    const { store, cart, reserved } = await run('session=s3&quantity=Adult:2,child:1&reserve=1');
    expect(store.selectedDate).toBe('2026-11-23');
    expect(store.selectedSessionId).toBe('s3');
    expect([store.count('adult'), store.count('child')]).toEqual([2, 1]);
    expect(reserved).toBe(true);
    expect(cart.reserve).toHaveBeenCalledTimes(1);
  });

  it("session=next takes the first open session (a sold-out one is skipped); session=today the venue's today", async () => {
    expect((await run('session=next')).store.selectedSessionId).toBe('s2');
    const today = await run('session=today');
    expect(today.store.selectedDate).toBe('2026-11-23');
    expect(today.store.selectedSessionId).toBe('s3');
  });

  it('a date only chooses the date; without reserve nothing is sent', async () => {
    const { store, cart, reserved } = await run('date=2026-11-22&quantity=Adult:1');
    expect(store.selectedDate).toBe('2026-11-22');
    expect(store.selectedSessionId).toBeNull();
    expect(reserved).toBe(false);
    expect(cart.reserve).not.toHaveBeenCalled();
  });

  it("date and quantities (the README's own link): no error; the quantities are set once a time is picked (issue 16)", async () => {
    const { store } = await run('date=2026-11-23&quantity=Adult:2,child:1');
    expect(store.notice).toBeNull();
    expect(store.count('adult')).toBe(0);
    await store.selectSession('s3');
    expect([store.count('adult'), store.count('child')]).toEqual([2, 1]);
    expect(store.notice).toBeNull();
    // A name the event does not have is said once the steppers are there to check it against.
    const missing = await run('date=2026-11-23&quantity=Senior:1');
    expect(missing.store.notice).toBeNull();
    await missing.store.selectSession('s3');
    expect(missing.store.notice).toEqual({ key: 'reserve.query.typeNotFound', params: { name: 'Senior' }, tone: 'error' });
    // With reserve on, the link says what is missing: the time.
    expect((await run('date=2026-11-23&quantity=Adult:1&reserve=warn')).store.notice).toEqual({
      key: 'reserve.guard.session',
      tone: 'warning',
    });
  });

  it('refusals: session with date, an unavailable date, an unknown session, a type that does not exist', async () => {
    expect((await run('session=s3&date=2026-11-23')).store.notice).toEqual({ key: 'reserve.query.sessionAndDate', tone: 'error' });
    expect((await run('date=2026-12-24')).store.notice).toEqual({ key: 'reserve.unavailableOnDate', tone: 'error' });
    // A sold-out session (its date has others) and a session that does not exist cannot be chosen.
    expect((await run('session=s1')).store.notice).toEqual({ key: 'reserve.errors.sessionUnavailable', tone: 'error' });
    expect((await run('session=nope')).store.notice).toEqual({ key: 'reserve.errors.sessionUnavailable', tone: 'error' });
    const missing = await run('session=s2&quantity=Senior:2');
    expect(missing.store.notice).toEqual({ key: 'reserve.query.typeNotFound', params: { name: 'Senior' }, tone: 'error' });
  });

  it('reserve=warn shows the problem as a warning, reserve=strict as the generic unavailable error', async () => {
    const warn = await run('session=s2&reserve=warn');
    expect(warn.reserved).toBe(false);
    expect(warn.store.notice).toEqual({ key: 'reserve.guard.atLeastOneTicket', tone: 'warning' });
    const strict = await run('session=s2&quantity=Adult:1&reserve=strict', { reserveFails: true });
    expect(strict.store.notice).toEqual({ key: 'reserve.unavailable', tone: 'error' });
  });

  it("quantities follow the steppers' caps; tg shows only the named groups; an unknown tg is ignored", async () => {
    const capped = await run('session=s2&quantity=Adult:9');
    expect(capped.store.count('adult')).toBe(4);
    const filtered = await run('session=s2&tg=tour');
    expect(filtered.store.shownGroups.map((g) => g.group.id)).toEqual(['tour']);
    const unknown = await run('session=s2&tg=nope');
    expect(unknown.store.shownGroups.map((g) => g.group.id)).toEqual(['timed', 'tour']);
  });

  it('select picks one of a type', async () => {
    const { store } = await run('session=s2&select=Guide');
    expect(store.count('guide')).toBe(1);
  });
});

describe("the cart anchor's date (spec section 4)", () => {
  it('an add-on opens on the date of the admission in the cart, when that date is available', async () => {
    const ctx = flow({ anchorStart: '2026-11-23T20:00:00Z' });
    await ctx.store.load();
    expect(ctx.store.selectedDate).toBe('2026-11-23');
    // 03:00 UTC on the 24th is still the 23rd in New York.
    const late = flow({ anchorStart: '2026-11-24T03:00:00Z' });
    await late.store.load();
    expect(late.store.selectedDate).toBe('2026-11-23');
  });

  it('an anchor on a date the event does not offer selects nothing; a link still wins', async () => {
    const ctx = flow({ anchorStart: '2026-12-24T15:00:00Z' });
    await ctx.store.load();
    expect(ctx.store.selectedDate).toBeNull();
    const linked = flow({ anchorStart: '2026-11-23T15:00:00Z' });
    await linked.store.load();
    await linked.store.preselect(parse('date=2026-11-22'));
    expect(linked.store.selectedDate).toBe('2026-11-22');
  });
});
