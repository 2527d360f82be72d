import { describe, expect, it } from 'vitest';
import { cancelVerdict, selfEditRules, type SelfEditTicket } from '../../src/domain/self-edit';
import { manageMessage } from '../../src/stores/ManageStore';
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
