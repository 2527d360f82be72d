import { describe, expect, it } from 'vitest';
import {
  cancelVerdict,
  editConfirmStep,
  paidValue,
  rescheduleIncrease,
  rescheduleVerdict,
  selfEditRules,
  type SelfEditTicket,
} from '../../src/domain/self-edit';
import { manageMessage } from '../../src/stores/ManageStore';
import { rescheduleMessage } from '../../src/stores/RescheduleStore';
import { manageView } from '../../src/screens/manage/visits';
import type { SelfEditAnswer } from '../../src/contract/self-edit';
import { ApiError } from '../../src/api/errors';

const now = new Date('2026-05-04T13:00:00Z');
const inHours = (h: number) => new Date(now.getTime() + h * 3_600_000);
const ticket = (over: Partial<SelfEditTicket> = {}): SelfEditTicket => ({
  id: 't1',
  state: 'booked',
  handler: 'tickets',
  category: 'tour',
  faceValue: 0,
  adjustedValue: 0,
  start: inHours(48),
  ...over,
});
const rules = selfEditRules({ mode: 'free_order_only', categories: ['tour'], horizon_hours: 24 });

describe('self_edit_rules (spec section 5, free cancellation)', () => {
  it('reads the horizon in hours, else in days, and mode off when unset', () => {
    expect(selfEditRules({ mode: 'free_order_only', horizon_days: 2 }).horizonHours).toBe(48);
    expect(selfEditRules({ mode: 'edit_order', horizon_days: 2, horizon_hours: 3 }).horizonHours).toBe(3);
    expect(selfEditRules(undefined)).toEqual({ mode: 'off', categories: [], horizonHours: null, cancelPaid: false });
    expect(selfEditRules({ mode: 'sometimes' }).mode).toBe('off');
  });

  it('lets free booked tickets of a listed category beyond the horizon be cancelled', () => {
    expect(cancelVerdict(rules, [ticket()], now)).toMatchObject({ cancelable: true, reason: null, cancelableIds: ['t1'] });
  });

  it('says why not: horizon, price, category, state, mode', () => {
    const reason = (t: Partial<SelfEditTicket>, r = rules) => cancelVerdict(r, [ticket(t)], now).reason;
    expect(reason({ start: inHours(23) })).toBe('tickets_too_old');
    expect(reason({ start: inHours(-1) })).toBe('tickets_too_old');
    expect(reason({ start: null })).toBe('tickets_too_old');
    expect(reason({ faceValue: 1000, adjustedValue: 1000 })).toBe('not_free');
    expect(reason({ adjustedValue: 500, faceValue: 0 })).toBe('not_free');
    expect(reason({ category: 'performance' })).toBe('category');
    expect(reason({ handler: 'membership' })).toBe('category');
    expect(reason({ state: 'cancelled' })).toBe('ticket_state_incorrect');
    expect(reason({}, { ...rules, mode: 'off' })).toBe('mode_off');
    expect(cancelVerdict(selfEditRules({ mode: 'free_order_only', categories: ['tour'], horizon_days: 3 }), [ticket()], now).reason).toBe(
      'tickets_too_old',
    );
  });

  it('refuses the whole order when any ticket of it was paid for', () => {
    const v = cancelVerdict(rules, [ticket(), ticket({ id: 't2', faceValue: 1500, adjustedValue: 1500 })], now);
    expect(v).toMatchObject({ cancelable: false, reason: 'not_free', cancelableIds: [] });
  });
});

describe('the manage screen words a refusal (spec section 8)', () => {
  it('maps codes to the texts', () => {
    expect(manageMessage(new ApiError(404, 'not_found', 'x'))).toBe('manage.notFound');
    expect(manageMessage(new ApiError(403, 'order_not_self_editable', 'x', 'self_edit', { reason: 'logged_in' }))).toBe('manage.logOut');
    expect(manageMessage(new ApiError(403, 'order_not_self_editable', 'x', 'self_edit', { reason: 'not_free' }))).toBe('manage.contactUs');
    expect(manageMessage(new ApiError(409, 'tickets_too_old', 'x'))).toBe('manage.contactUs');
    expect(manageMessage(new ApiError(409, 'ticket_state_incorrect', 'x'))).toBe('manage.noValidTickets');
    expect(manageMessage(new ApiError(500, 'internal_error', 'x'))).toBe('manage.loadError');
  });
});

describe('paid cancellation and reschedule (spec sections 4, 5, 8)', () => {
  const edit = selfEditRules({ mode: 'edit_order', categories: ['tour'], horizon_hours: 24, cancel_paid_tickets: true });
  const paid = (over: Partial<SelfEditTicket> = {}) => ticket({ faceValue: 2000, adjustedValue: 1800, fees: 150, ...over });

  it('lets paid tickets be cancelled only in edit_order mode with cancel_paid_tickets, refunding what was paid', () => {
    expect(edit.cancelPaid).toBe(true);
    expect(selfEditRules({ mode: 'free_order_only', cancel_paid_tickets: true }).cancelPaid).toBe(false);
    expect(cancelVerdict(edit, [paid()], now)).toMatchObject({ cancelable: true, cancelableIds: ['t1'] });
    expect(cancelVerdict({ ...edit, cancelPaid: false }, [paid()], now).reason).toBe('not_free');
    expect(cancelVerdict(edit, [paid({ start: inHours(2) })], now).reason).toBe('tickets_too_old');
    expect(paidValue(paid())).toBe(1950);
  });

  it('moves booked tickets of a self-editable category beyond the horizon, paid or free, but never a member benefit', () => {
    expect(rescheduleVerdict(edit, [paid(), ticket({ id: 't2' })], now).cancelableIds).toEqual(['t1', 't2']);
    const reason = (t: Partial<SelfEditTicket>, r = edit) => rescheduleVerdict(r, [paid(t)], now).reason;
    expect(reason({}, { ...edit, mode: 'free_order_only' })).toBe('not_edit_mode');
    expect(reason({}, { ...edit, mode: 'off' })).toBe('mode_off');
    expect(reason({ state: 'unbooked' })).toBe('ticket_state_incorrect');
    expect(reason({ category: 'performance' })).toBe('category');
    expect(reason({ membershipId: 'm1' })).toBe('member_benefit');
    expect(reason({ start: inHours(23) })).toBe('tickets_too_old');
  });

  it("costs the new time's price increase over the old, never less; a chosen price moves as it is", () => {
    expect(rescheduleIncrease(0, 500)).toBe(500);
    expect(rescheduleIncrease(500, 0)).toBe(0);
    expect(rescheduleIncrease(200, 500)).toBe(300);
    expect(rescheduleIncrease(0, 500, true)).toBe(0);
  });

  it('confirms with nothing outstanding free, else pays at the checkout, else payment-not-supported', () => {
    expect(editConfirmStep(0, 'USD')).toBe('free');
    expect(editConfirmStep(500, 'USD')).toBe('pay');
    expect(editConfirmStep(40, 'USD')).toBe('unsupported');
    expect(editConfirmStep(40, 'GBP')).toBe('pay');
  });

  it("words a reschedule's refusals as spec section 8 does", () => {
    const msg = (code: string, extra?: Record<string, unknown>) =>
      rescheduleMessage(new ApiError(409, code as never, 'x', 'reserve', extra), '2:00 PM');
    expect(msg('event_session_sold_out')).toEqual({ key: 'reschedule.soldOut', values: { time: '2:00 PM' } });
    expect(msg('session_capacity_exceeded').key).toBe('reschedule.soldOut');
    for (const code of ['tickets_too_old', 'ticket_state_incorrect', 'ticket_not_found'])
      expect(msg(code).key).toBe('manage.contactToReschedule');
    expect(msg('order_not_self_editable', { reason: 'category' }).key).toBe('manage.contactToReschedule');
    expect(msg('order_not_self_editable', { reason: 'logged_in' }).key).toBe('manage.logOut');
    expect(msg('cart_expired').key).toBe('manage.editExpired');
    expect(manageMessage(new ApiError(410, 'cart_expired', 'x'))).toBe('manage.editExpired');
  });

  it('shows visits with what may move and where the unsaved edit moves them; moved-away tickets are not shown', () => {
    const row = (id: string, state: string, session: string) => ({
      id,
      state,
      event_template_id: 'e1',
      event_session_id: session,
      ticket_type_id: 'ty',
      ticket_order_id: 'o1',
      start_datetime: session === 's1' ? '2026-05-06T15:00:00Z' : '2026-05-06T18:00:00Z',
      timezone: 'America/New_York',
      admit_name: null,
      seat: null,
      scan_code: state === 'booked' ? 'CODE' : null,
    });
    const answer = {
      ticket_order: { _data: [{ id: 'o1' }], _count: 1 },
      ticket: { _data: [row('a', 'booked', 's1'), row('b', 'unbooked', 's0'), row('c', 'cancelled', 's1')], _count: 3 },
      event_template: { _data: [{ id: 'e1', name: 'Tour' }], _count: 1 },
      ticket_type: { _data: [{ id: 'ty', name: 'Adult' }], _count: 1 },
      self_edit: {
        _data: [
          {
            reschedulable_ticket_ids: ['a'],
            edit: { moves: [{ ticket_id: 'a', to_ticket_id: 'n', to_event_session_id: 's2', to_start_datetime: '2026-05-06T18:00:00Z' }] },
          },
        ],
        _count: 1,
      },
    } as unknown as SelfEditAnswer;
    const view = manageView(answer, 'America/New_York');
    expect(view.visits).toHaveLength(1);
    expect(view.visits[0]).toMatchObject({ sessionId: 's1', event: 'Tour', movableIds: ['a'] });
    expect(view.visits[0].movingTo).toMatch(/2:00 PM/);
    expect(view.cancelled.map((t) => t.id)).toEqual(['c']);
  });
});
