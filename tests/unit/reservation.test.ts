import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/errors';
import type { CalendarDayRow, SessionRow, TicketGroupRow } from '../../src/api/events';
import { ReservationStore, type ReservationApi, type ReservationDeps } from '../../src/stores/ReservationStore';
import { upsellSettings } from '../../src/domain/upsell';
import type { AnchorVisit } from '../../src/stores/reservation/types';
import { reserveErrorMessage } from '../../src/domain/reservation-errors';
import { dayRow, groupRow, reservableEvent, sessionRow, typeRow } from '../helpers/catalogue-rows';

const TZ = 'America/New_York';
const group = (id: string, over: Partial<TicketGroupRow> = {}) => groupRow(id, { meta: { admit_names: 'optional' }, ...over });
const type = typeRow;
const day = (date: string, over: Partial<CalendarDayRow> = {}) => dayRow(date, { ariaLabel: date, ...over });
const session = sessionRow;

const survey = { type: 'object', required: ['zip'], properties: { zip: { type: 'string' }, age: { type: 'integer' } } };
const timed = group('timed', { additional_info_spec: survey });
const anyDay = group('anyday', { flexible: true, handler: 'passes', _rank: 2 });
const members = group('members', { hidden_type: 'public_member_only' });

function setup(
  opts: { groups?: TicketGroupRow[]; calendar?: CalendarDayRow[]; sessions?: SessionRow[][]; visit?: ReservationDeps['visit'] } = {},
) {
  const groups = opts.groups ?? [timed, anyDay, members];
  const types = [type('adult', 'timed'), type('child', 'timed'), type('pass', 'anyday'), type('member', 'members')];
  const data = reservableEvent(TZ, groups, types, {
    messageRules: [
      {
        id: 'r1',
        event_template_id: 'e1',
        _rank: 0,
        triggers: { quantity: { min: 3, ticket_group_ids: ['timed'] } },
        actions: [{ type: 'quantity_message', text: 'Groups of 3 or more: call us.' }],
      },
    ],
  });
  const sessionAnswers = [...(opts.sessions ?? [[session('s1', '2026-11-22T15:00:00Z'), session('s2', '2026-11-22T16:00:00Z')]])];
  const api: ReservationApi = {
    getEvent: vi.fn(async () => data),
    getCalendar: vi.fn(async () => opts.calendar ?? [day('2026-11-22', { tooltip: ['Busy weekend.'] }), day('2026-11-23')]),
    getSessions: vi.fn(async () => (sessionAnswers.length > 1 ? sessionAnswers.shift()! : sessionAnswers[0])),
    getSession: vi.fn(async (_e: string, sid: string) => ({
      session: session(sid, '2026-11-22T15:00:00Z', { availableCapacity: 5 }),
      groups: groups.filter((g) => !g.flexible && g.hidden_type !== 'public_member_only'),
      types: types.filter((t) => t.ticket_group_id === 'timed'),
    })),
  };
  const cart = { reserve: vi.fn(async () => {}) };
  const store = new ReservationStore({ api, cart, eventId: 'e1', timezone: TZ, visit: opts.visit });
  return { store, api, cart, data };
}

async function readyWithSession(opts: { answered?: boolean } = {}) {
  const ctx = setup();
  await ctx.store.load();
  await ctx.store.selectDate('2026-11-22');
  await ctx.store.selectSession('s1');
  if (opts.answered) ctx.store.setSurveyAnswers('timed', { zip: '10024' });
  return ctx;
}

describe('ReservationStore (spec section 4)', () => {
  it('loads, hides members-only groups, and asks for the admission type when both are offered', async () => {
    const { store, api } = setup();
    await store.load();
    expect(store.state).toBe('ready');
    expect(api.getCalendar).toHaveBeenCalledWith('e1', ['timed']);
    expect(store.publicGroups.map((g) => g.id)).toEqual(['timed', 'anyday']);
    expect(store.offersBoth).toBe(true);
    expect(store.effectiveMode).toBeNull();
    expect(await store.submit()).toBe(false);
    expect(store.notice?.key).toBe('reserve.guard.admissionType');
  });

  it('left while its event is read, it asks no calendar and changes nothing', async () => {
    const { store, api, data } = setup();
    let answer!: (value: typeof data) => void;
    vi.mocked(api.getEvent).mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const loading = store.load();
    store.dispose();
    answer(data);
    await loading;
    expect(api.getCalendar).not.toHaveBeenCalled();
    expect(store.state).toBe('loading');
  });

  it("is 'unavailable' with no dates and no flexible tickets", async () => {
    const { store } = setup({ groups: [timed], calendar: [day('2026-11-22', { status: 'sold_out' })] });
    await store.load();
    expect(store.state).toBe('unavailable');
  });

  it('selects a single available date by itself and loads its sessions', async () => {
    const { store, api } = setup({ groups: [timed], calendar: [day('2026-11-22'), day('2026-11-23', { status: 'sold_out' })] });
    await store.load();
    expect(store.selectedDate).toBe('2026-11-22');
    expect(api.getSessions).toHaveBeenCalledWith('e1', '2026-11-22', ['timed']);
    expect(store.sessions).toHaveLength(2);
  });

  it('choosing a date clears the session; choosing a session loads groups and resets quantities', async () => {
    const { store } = await readyWithSession();
    expect(store.shownGroups.map((g) => g.group.id)).toEqual(['timed']);
    store.increment(timed, 'adult');
    expect(store.count('adult')).toBe(1);
    await store.selectSession('s2');
    expect(store.count('adult')).toBe(0);
    await store.selectDate('2026-11-23');
    expect(store.selectedSessionId).toBeNull();
    expect(store.shownGroups).toEqual([]);
  });

  it("shows the chosen date's messages and the quantity messages the selection triggers", async () => {
    const { store } = await readyWithSession();
    expect(store.messages).toEqual(['Busy weekend.']);
    for (let i = 0; i < 3; i++) store.increment(timed, 'adult');
    expect(store.messages).toEqual(['Busy weekend.', 'Groups of 3 or more: call us.']);
  });

  it('refuses a sold-out session', async () => {
    const { store } = setup({ sessions: [[session('s1', '2026-11-22T15:00:00Z', { sold_out: true })]] });
    await store.load();
    await store.selectDate('2026-11-22');
    await store.selectSession('s1');
    expect(store.selectedSessionId).toBeNull();
  });

  it('flexible admission clears the date and vice versa', async () => {
    const { store } = await readyWithSession();
    store.chooseMode('flexible');
    expect(store.selectedDate).toBeNull();
    expect(store.selectedSessionId).toBeNull();
    expect(store.shownGroups.map((g) => g.group.id)).toEqual(['anyday']);
    store.increment(anyDay, 'pass');
    await store.selectDate('2026-11-23');
    expect(store.effectiveMode).toBe('date');
    expect(store.count('pass')).toBe(0);
  });

  it('caps steppers by the session capacity shared across the groups', async () => {
    const { store } = await readyWithSession(); // session detail: availableCapacity 5, group max 4
    for (let i = 0; i < 6; i++) store.increment(timed, 'adult');
    expect(store.count('adult')).toBe(4);
    expect(store.canIncrement(timed, 'child')).toBe(false);
    expect(store.showFewTicketsWarning).toBe(true);
  });

  it('guards and then reserves lines with admit names and survey answers keyed by group', async () => {
    const { store, cart } = await readyWithSession();
    expect(await store.submit()).toBe(false);
    expect(store.notice?.key).toBe('reserve.guard.atLeastOneTicket');
    store.increment(timed, 'adult');
    store.increment(timed, 'adult');
    store.setAdmit('adult:0', 'name', '  Ada   Lovelace ');
    expect(await store.submit(true)).toBe(false); // the required survey answer is missing
    expect(store.notice?.key).toBe('reserve.errors.fixFields');
    store.setSurveyAnswers('timed', { zip: '10024', age: '40' });
    expect(await store.submit(true)).toBe(true);
    expect(cart.reserve).toHaveBeenCalledWith(
      [
        { event_session_id: 's1', ticket_type_id: 'adult', admit_name: 'Ada Lovelace' },
        { event_session_id: 's1', ticket_type_id: 'adult' },
      ],
      { timed: { zip: '10024', age: 40 } },
    );
    expect(await store.submit(false)).toBe(false); // an invalid survey stops the submit
  });

  it('session sold out with other sessions left: reload sessions and ask for another session', async () => {
    const { store, cart, api } = await readyWithSession({ answered: true });
    store.increment(timed, 'adult');
    cart.reserve.mockRejectedValueOnce(new ApiError(409, 'event_session_sold_out', 'sold out', 'reserve'));
    (api.getSessions as ReturnType<typeof vi.fn>).mockResolvedValueOnce([
      session('s1', '2026-11-22T15:00:00Z', { sold_out: true, availableCapacity: 0 }),
      session('s2', '2026-11-22T16:00:00Z'),
    ]);
    expect(await store.submit()).toBe(false);
    expect(store.notice).toMatchObject({ key: 'reserve.soldOut.session', params: { time: '10:00 AM' } });
    expect(store.selectedSessionId).toBeNull();
    expect(store.selectedDate).toBe('2026-11-22');
  });

  it('session sold out and the whole date gone: reload the calendar, clear the date, ask for another date', async () => {
    const { store, cart, api } = await readyWithSession({ answered: true });
    store.increment(timed, 'adult');
    cart.reserve.mockRejectedValueOnce(new ApiError(409, 'event_session_sold_out', 'sold out', 'reserve'));
    (api.getSessions as ReturnType<typeof vi.fn>).mockResolvedValueOnce([
      session('s1', '2026-11-22T15:00:00Z', { sold_out: true, availableCapacity: 0 }),
    ]);
    (api.getCalendar as ReturnType<typeof vi.fn>).mockResolvedValueOnce([day('2026-11-22', { status: 'sold_out' }), day('2026-11-23')]);
    expect(await store.submit()).toBe(false);
    expect(store.notice).toMatchObject({ key: 'reserve.soldOut.date', params: { date: 'Sunday, November 22, 2026' } });
    expect(store.selectedDate).toBeNull();
    expect(store.availableDates.map((d) => d.date)).toEqual(['2026-11-23']);
  });

  it('maps other reserve errors through the one table', async () => {
    const { store, cart } = await readyWithSession({ answered: true });
    store.increment(timed, 'adult');
    cart.reserve.mockRejectedValueOnce(new ApiError(400, 'max_tickets_per_order_exceeded', 'too many', 'reserve', { max: 4 }));
    await store.submit();
    expect(store.notice?.key).toBe('reserve.errors.maxTicketsPerOrder');
  });
});

describe('reserve error table (spec section 8)', () => {
  const err = (status: number, code: string, _unused = '', extra?: Record<string, unknown>, context?: string) => ({
    status,
    _code: code,
    _extra: extra,
    _context: context,
  });
  it('maps the expected codes, the promo-code and members-only blocks, a seller rule’s message, and the generic sentence', () => {
    expect(reserveErrorMessage(err(409, 'ticket_group_sold_out')).key).toBe('reserve.errors.groupSoldOut');
    expect(reserveErrorMessage(err(409, 'session_capacity_exceeded')).key).toBe('reserve.errors.sessionCapacity');
    expect(reserveErrorMessage(err(400, 'rule_blocks_reserve', 'x', { block_reason: 'code_required' })).key).toBe(
      'reserve.errors.codeRequired',
    );
    expect(reserveErrorMessage(err(400, 'validation_failed', 'bad', {}, 'event_calendar')).key).toBe('reserve.errors.tooManyTypes');
    expect(reserveErrorMessage(err(403, 'rule_blocks_reserve', '', { block_reason: 'membership_required' })).key).toBe(
      'reserve.errors.membersOnly',
    );
    // A seller's checkout rule may carry its own words (seller text); the API never sends English of its own.
    expect(reserveErrorMessage(err(403, 'rule_blocks_reserve', '', { message: 'Book the tour with admission.' }))).toEqual({
      key: 'reserve.errors.described',
      params: { description: 'Book the tour with admission.' },
    });
    expect(reserveErrorMessage(err(403, 'rule_blocks_reserve')).key).toBe('reserve.errors.ruleBlocks');
    expect(reserveErrorMessage(err(409, 'renewal_not_open')).key).toBe('membership.errors.renewalNotOpen');
    expect(reserveErrorMessage(err(400, 'something_new')).key).toBe('errors.unexpected');
    expect(reserveErrorMessage(err(500, 'internal', 'oops')).key).toBe('app.unexpectedError');
    expect(reserveErrorMessage(err(0, 'network_error')).key).toBe('app.unexpectedError');
  });
});

describe('live availability (issue 16)', () => {
  it("an open page reads its date's sessions again every few seconds while visible, and stops when left", async () => {
    vi.useFakeTimers();
    try {
      const { store, api } = await readyWithSession();
      const before = vi.mocked(api.getSessions).mock.calls.length;
      store.start();
      await vi.advanceTimersByTimeAsync(4000 * 3);
      expect(vi.mocked(api.getSessions).mock.calls.length - before).toBe(3);
      store.dispose();
      await vi.advanceTimersByTimeAsync(4000 * 3);
      expect(vi.mocked(api.getSessions).mock.calls.length - before).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps the shopper's quantities when the chosen session's figure moves, and reads the new '{n} left'", async () => {
    const ctx = setup({
      sessions: [
        [session('s1', '2026-11-22T15:00:00Z', { availableCapacity: 5 }), session('s2', '2026-11-22T16:00:00Z')],
        [session('s1', '2026-11-22T15:00:00Z', { availableCapacity: 3 }), session('s2', '2026-11-22T16:00:00Z')],
      ],
    });
    await ctx.store.load();
    await ctx.store.selectDate('2026-11-22');
    await ctx.store.selectSession('s1');
    ctx.store.increment(timed, 'adult');
    vi.mocked(ctx.api.getSession).mockResolvedValueOnce({
      session: session('s1', '2026-11-22T15:00:00Z', { availableCapacity: 3 }),
      groups: [timed],
      types: [type('adult', 'timed'), type('child', 'timed')],
    });
    await ctx.store.sessionChoice.refresh();
    expect(ctx.store.detail?.session.availableCapacity).toBe(3);
    expect(ctx.store.count('adult')).toBe(1);
    expect(ctx.store.selectedSessionId).toBe('s1');
  });

  it('a chosen session that sold out meanwhile is dropped with the spec message before any submit', async () => {
    const ctx = setup({
      sessions: [
        [session('s1', '2026-11-22T15:00:00Z'), session('s2', '2026-11-22T16:00:00Z')],
        [session('s1', '2026-11-22T15:00:00Z', { sold_out: true, availableCapacity: 0 }), session('s2', '2026-11-22T16:00:00Z')],
      ],
    });
    await ctx.store.load();
    await ctx.store.selectDate('2026-11-22');
    await ctx.store.selectSession('s1');
    await ctx.store.sessionChoice.refresh();
    expect(ctx.store.selectedSessionId).toBeNull();
    expect(ctx.store.notice).toMatchObject({ key: 'reserve.soldOut.session', tone: 'error' });
    expect(ctx.cart.reserve).not.toHaveBeenCalled();
  });

  it('a refused reserve for lack of room reads the figures again', async () => {
    const { store, api, cart } = await readyWithSession({ answered: true });
    store.increment(timed, 'adult');
    cart.reserve.mockRejectedValueOnce(new ApiError(409, 'session_capacity_exceeded', 'Not enough room.'));
    const before = vi.mocked(api.getSessions).mock.calls.length;
    expect(await store.submit()).toBe(false);
    await vi.waitFor(() => expect(vi.mocked(api.getSessions).mock.calls.length).toBe(before + 1));
  });
});

describe('running subtotal (issue 16)', () => {
  it('follows the steppers: price and outside fees of every chosen ticket', async () => {
    const { store } = await readyWithSession();
    expect(store.subtotal.lines).toEqual([]);
    store.increment(timed, 'adult');
    store.increment(timed, 'adult');
    store.increment(timed, 'child');
    const sub = store.subtotal;
    expect(sub.lines.map((l) => [l.typeId, l.count])).toEqual([
      ['adult', 2],
      ['child', 1],
    ]);
    expect(sub.total).toBe(sub.value + sub.fees);
    expect(sub.value).toBe(sub.lines.reduce((s, l) => s + l.value, 0));
  });
});

describe('an add-on fitted to its visit (upsell chains, issue 16)', () => {
  /** General Admission on 22 November 2026 at 10:00 New York (15:00Z), 2 Adult and 1 Child. */
  const anchor: AnchorVisit = {
    eventId: 'ga',
    category: 'admission',
    sessionId: 'ga1',
    start: '2026-11-22T15:00:00Z',
    end: '2026-11-22T15:30:00Z',
    timezone: TZ,
    count: 3,
    name: 'General Admission',
    types: [
      { name: 'Adult', count: 2 },
      { name: 'Child', count: 1 },
    ],
  };
  const visitOf =
    (anchors: AnchorVisit[], visitTime = 'same_date') =>
    () => ({
      settings: upsellSettings({ admission_event_id: 'ga', upsells: { anchor_categories: ['admission'], visit_time: visitTime } }),
      anchors,
      chainOffers: () => false,
      known: true,
    });
  async function addOn(anchors: AnchorVisit[], visitTime?: string) {
    const ctx = setup({ groups: [timed], visit: visitOf(anchors, visitTime) });
    // the event is sold only after General Admission, with as many tickets
    Object.assign(ctx.data.event, {
      category: 'exhibition',
      config: { upsell: { requires_anchor: true, anchor_event_ids: ['ga'] } },
      meta: { tickets_must_match_anchor_tickets: true },
    });
    await ctx.store.load();
    return ctx;
  }

  it("offers only the visit's date, starts at the visit's tickets and holds the count to them", async () => {
    const { store } = await addOn([anchor]);
    expect(store.dateButtons.map((d) => d.date)).toEqual(['2026-11-22']);
    expect(store.selectedDate).toBe('2026-11-22');
    await store.selectSession('s1');
    expect([store.count('adult'), store.count('child')]).toEqual([2, 1]);
    store.setSurveyAnswers('timed', { zip: '10024' });
    expect(store.blockingProblem).toBeNull();
    store.decrement(timed, 'child');
    expect(store.blockingProblem).toEqual({ key: 'reserve.errors.ticketsMustMatchCount', params: { count: 3 }, tone: 'error' });
  });

  it('timeslot: a time outside the admission slot is disabled, naming the visit', async () => {
    const { store } = await addOn([anchor], 'timeslot');
    expect(store.visit.outsideVisit('2026-11-22T15:00:00Z')).toBeNull();
    expect(store.visit.outsideVisit('2026-11-22T16:00:00Z')?.name).toBe('General Admission');
  });

  it("without an admission in the cart: 'Add an admission event first', and nothing is sent", async () => {
    const { store, cart } = await addOn([]);
    expect(store.visit.missingAnchor).toBe(true);
    await store.selectDate('2026-11-22');
    await store.selectSession('s1');
    store.increment(timed, 'adult');
    expect(await store.submit()).toBe(false);
    expect(store.notice?.key).toBe('reserve.upsell.anchorFirst');
    expect(cart.reserve).not.toHaveBeenCalled();
  });
});
