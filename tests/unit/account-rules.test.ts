import { describe, expect, it } from 'vitest';
import type { MembershipRow, RoleRow } from '../../src/contract/account';
import type { CartEventTemplateRow, CartTicketTypeRow, TicketOrderRow, TicketRow } from '../../src/contract/cart';
import { emailError, validateSetEmail, validateSignUp } from '../../src/screens/recovery/rules';
import { characterClasses, passwordChecklist, validatePasswordForm } from '../../src/domain/password';
import { autoRenewStatus, membershipViews, orderDateLabel, orderViews, visitViews } from '../../src/screens/account/views';
import { enabledAccountPages } from '../../src/domain/account-pages';

const met = (password: string) => Object.fromEntries(passwordChecklist(password).map((c) => [c.rule, c.met]));

/** Whole wire rows (src/contract) with the fields a test does not care about filled in. */
const membershipRow = (over: Partial<MembershipRow> & Pick<MembershipRow, 'id' | 'valid_from' | 'valid_to'>): MembershipRow => ({
  scan_code: '',
  role_id: '',
  membership_program_id: '',
  state: 'active',
  auto_renew_state: 'other',
  members: [],
  validFrom: over.valid_from,
  validTo: over.valid_to,
  member_event_purchase_limit: 0,
  ticket_order_id: null,
  ticket_id: null,
  ticket_group_id: null,
  event_template_id: null,
  identity_id: null,
  benefits: [],
  ...over,
});
const roleRow = (over: Partial<RoleRow> & Pick<RoleRow, 'id' | 'name'>): RoleRow => ({
  _rank: 0,
  membership_program_id: '',
  ticket_type_id: null,
  duration_months: 12,
  giftable: false,
  auto_renew: false,
  member_event_purchase_limit: 0,
  benefits: [],
  ...over,
});
const orderRow = (over: Partial<TicketOrderRow> & Pick<TicketOrderRow, 'id' | 'order_number'>): TicketOrderRow => ({
  identity_id: '',
  cart_id: '',
  state: 'booked',
  purchased_on: '2026-01-01T00:00:00Z',
  total_before_fees_price: '0.00',
  total_fees: '0.00',
  total_discount: '0.00',
  total_after_fees_price: '0.00',
  ...over,
});
const ticketRow = (over: Partial<TicketRow> & Pick<TicketRow, 'id'>): TicketRow => ({
  state: 'booked',
  cart_id: null,
  ticket_order_id: null,
  event_session_id: null,
  event_template_id: '',
  ticket_type_id: '',
  ticket_group_id: '',
  handler: 'tickets',
  valid_from: null,
  valid_to: null,
  admit_name: null,
  admit_email: null,
  face_value: '0.00',
  adjusted_value: '0.00',
  fees: '0.00',
  seat_id: null,
  seat: null,
  scan_code: null,
  start_datetime: null,
  timezone: null,
  ...over,
});
const typeRow = (id: string, name: string): CartTicketTypeRow => ({
  id,
  name,
  _rank: 0,
  summary: null,
  ticket_group_id: '',
  currency_amount: '0.00',
  currency_amount_min: null,
  currency_amount_max: null,
  discounted_amount: null,
  outside_fees: [],
});
const eventRow = (id: string, name: string): CartEventTemplateRow => ({
  id,
  name,
  category: '',
  subtitle: null,
  venue_id: null,
  event_type: 'repeating',
  meta: {},
});

describe('password checklist (spec section 5)', () => {
  it('lists every rule in order and marks each one', () => {
    expect(passwordChecklist('').map((c) => c.rule)).toEqual([
      'min_length',
      'max_length',
      'surrounding_space',
      'printable',
      'character_classes',
    ]);
    expect(met('Abcdef1!')).toEqual({
      min_length: true,
      max_length: true,
      surrounding_space: true,
      printable: true,
      character_classes: true,
    });
  });

  it('needs at least 8 and at most 254 characters', () => {
    expect(met('Ab1!xyz').min_length).toBe(false);
    expect(met('Ab1!xyzw').min_length).toBe(true);
    expect(met(`Ab1${'x'.repeat(251)}`).max_length).toBe(true);
    expect(met(`Ab1${'x'.repeat(252)}`).max_length).toBe(false);
  });

  it('refuses a leading or trailing space but allows one inside', () => {
    expect(met(' Abcdef12').surrounding_space).toBe(false);
    expect(met('Abcdef12 ').surrounding_space).toBe(false);
    expect(met('Abc def12').surrounding_space).toBe(true);
  });

  it('allows printable characters only', () => {
    expect(met('Abcdef1\u0007x').printable).toBe(false);
    expect(met('Abcd\tef12').printable).toBe(false);
    expect(met('Abcd\u2028ef12').printable).toBe(false);
    expect(met('Ábcdéf12€').printable).toBe(true);
  });

  it('needs 3 of the 4 classes: uppercase, lowercase, digit, special', () => {
    expect(characterClasses('abcdefgh')).toBe(1);
    expect(met('abcdefg1').character_classes).toBe(false);
    expect(met('abcdefG1').character_classes).toBe(true);
    expect(met('abcdefg!1').character_classes).toBe(true);
    expect(met('ABCDEF!1').character_classes).toBe(true);
  });

  it('sign-up: names required and at most 50, e-mails confirmed ignoring case, the password rules and their confirmation', () => {
    const good = {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.org',
      email_confirm: ' ADA@example.org ',
      password: 'Museum-Visit-2026',
      password_confirm: 'Museum-Visit-2026',
    };
    expect(validateSignUp(good)).toEqual({});
    expect(
      validateSignUp({
        first_name: ' ',
        last_name: 'x'.repeat(51),
        email: 'nope',
        email_confirm: '',
        password: 'short',
        password_confirm: 'other',
      }),
    ).toEqual({
      first_name: 'required',
      last_name: 'too_long',
      email: 'invalid',
      email_confirm: 'required',
      password: 'invalid',
      password_confirm: 'mismatch',
    });
    expect(validateSignUp({ ...good, email_confirm: 'someone@example.org', password_confirm: '' })).toEqual({
      email_confirm: 'mismatch',
      password_confirm: 'required',
    });
  });

  it('reset form: required, rules (Invalid password) and Passwords must match', () => {
    expect(validatePasswordForm('', '')).toEqual({ password: 'required', confirm: 'required' });
    expect(validatePasswordForm('short', 'short')).toEqual({ password: 'invalid' });
    expect(validatePasswordForm('Abcdef12', 'Abcdef13')).toEqual({ confirm: 'mismatch' });
    expect(validatePasswordForm('Abcdef12', 'Abcdef12')).toEqual({});
  });
});

describe('email forms (spec section 5)', () => {
  it('is required, at most 254 characters and an address', () => {
    expect(emailError('  ')).toBe('required');
    expect(emailError('not-an-address')).toBe('invalid');
    expect(emailError(`${'a'.repeat(245)}@example.com`)).toBe('too_long');
    expect(emailError(' ada@example.com ')).toBeNull();
  });

  it('set-email: the domain must contain a dot', () => {
    expect(emailError('kim@localhost')).toBeNull();
    expect(emailError('kim@localhost', { domainDot: true })).toBe('invalid');
    expect(emailError('kim@example.', { domainDot: true })).toBe('invalid');
    expect(emailError('kim@mail.example.com', { domainDot: true })).toBeNull();
  });

  it('set-email: both entries match ignoring case', () => {
    expect(validateSetEmail('kim@example.com', 'KIM@example.com')).toEqual({});
    expect(validateSetEmail('kim@example.com', 'kim@example.org')).toEqual({ confirm: 'mismatch' });
    expect(validateSetEmail('kim@localhost', '')).toEqual({ email: 'invalid', confirm: 'required' });
  });
});

describe('account views', () => {
  const tz = 'America/New_York';
  const now = new Date('2026-05-04T13:00:00Z');

  it('auto-renew: scheduled is Enrolled, cancelled is Cancelled, anything else Not enrolled', () => {
    expect(autoRenewStatus('scheduled')).toBe('enrolled');
    expect(autoRenewStatus('cancelled')).toBe('cancelled');
    expect(autoRenewStatus('other')).toBe('not_enrolled');
    expect(autoRenewStatus(null)).toBe('not_enrolled');
  });

  it('membership details: level, program, term at the venue, scan code; current ones first', () => {
    const views = membershipViews(
      {
        membership: {
          _count: 2,
          _data: [
            membershipRow({
              id: 'old',
              scan_code: 'M1',
              role_id: 'r1',
              membership_program_id: 'p',
              auto_renew_state: 'other',
              valid_from: '2024-01-01T05:00:00Z',
              valid_to: '2025-01-01T05:00:00Z',
            }),
            membershipRow({
              id: 'now',
              scan_code: 'M2',
              role_id: 'r2',
              membership_program_id: 'p',
              auto_renew_state: 'scheduled',
              valid_from: '2026-04-04T04:00:00Z',
              valid_to: '2027-04-04T04:00:00Z',
              ticket_order_id: 'o1',
            }),
          ],
        },
        role: {
          _count: 2,
          _data: [
            roleRow({ id: 'r1', name: 'Individual', _rank: 1, membership_program_id: 'p' }),
            roleRow({ id: 'r2', name: 'Family', _rank: 2, membership_program_id: 'p' }),
          ],
        },
        membership_program: { _count: 1, _data: [{ id: 'p', name: 'Museum Membership', _rank: 0 }] },
      },
      now,
      tz,
    );
    expect(views.map((v) => v.id)).toEqual(['now', 'old']);
    expect(views[0]).toMatchObject({
      level: 'Family',
      program: 'Museum Membership',
      validFrom: 'April 4, 2026',
      validTo: 'April 4, 2027',
      scanCode: 'M2',
      autoRenew: 'enrolled',
      active: true,
      orderId: 'o1',
    });
    expect(views[1]).toMatchObject({ active: false, autoRenew: 'not_enrolled', validTo: 'January 1, 2025' });
    expect(membershipViews(null, now, tz)).toEqual([]);
  });

  it('orders carry their own tickets with event and type names; dates in the spec format', () => {
    const ticket = (id: string, order: string) =>
      ticketRow({
        id,
        state: 'booked',
        ticket_order_id: order,
        event_session_id: 's1',
        event_template_id: 'e1',
        ticket_type_id: 't1',
        ticket_group_id: 'g1',
        admit_name: null,
        adjusted_value: '24.00',
        scan_code: `SC-${id}`,
        start_datetime: '2026-05-05T14:00:00Z',
        timezone: tz,
      });
    const views = orderViews(
      {
        ticket_order: {
          _count: 2,
          _data: [
            orderRow({
              id: 'o2',
              order_number: '1002',
              cart_id: 'c2',
              state: 'booked',
              purchased_on: '2026-05-04T12:00:00Z',
              total_after_fees_price: '48.00',
            }),
            orderRow({
              id: 'o1',
              order_number: '1001',
              cart_id: 'c1',
              state: 'booked',
              purchased_on: '2026-05-01T12:00:00Z',
              total_after_fees_price: '24.00',
            }),
          ],
        },
        ticket: { _count: 3, _data: [ticket('a', 'o2'), ticket('b', 'o2'), ticket('c', 'o1')] },
        ticket_type: { _count: 1, _data: [typeRow('t1', 'Adult')] },
        event_template: { _count: 1, _data: [eventRow('e1', 'General Admission')] },
      },
      tz,
    );
    expect(views.map((o) => [o.number, o.ticketCount])).toEqual([
      ['1002', 2],
      ['1001', 1],
    ]);
    expect(views[0]).toMatchObject({ purchasedOn: 'Mon, May 4 2026', events: ['General Admission'] });
    expect(views[0].tickets[0]).toMatchObject({
      event: 'General Admission',
      type: 'Adult',
      when: 'Tue, May 5, 2026 at 10:00 AM',
      scanCode: 'SC-a',
    });
    expect(orderDateLabel(null, tz)).toBe('');
  });

  it('visits list the session with its tickets', () => {
    const views = visitViews(
      {
        order_session: {
          _count: 1,
          _data: [
            {
              id: 's1',
              event_template_id: 'e1',
              name: 'General Admission',
              start_datetime: '2026-05-05T14:00:00Z',
              end_datetime: '2026-05-05T15:00:00Z',
              timezone: tz,
              ticket_count: 1,
              ticket_order_ids: ['o1'],
            },
          ],
        },
        ticket: {
          _count: 2,
          _data: [
            ticketRow({
              id: 'a',
              state: 'booked',
              ticket_order_id: 'o1',
              event_session_id: 's1',
              event_template_id: 'e1',
              ticket_type_id: 't1',
              ticket_group_id: 'g',
              admit_name: 'Ada Lovelace',
              adjusted_value: '1.00',
            }),
            ticketRow({
              id: 'x',
              state: 'booked',
              ticket_order_id: 'o9',
              event_session_id: 's9',
              event_template_id: 'e1',
              ticket_type_id: 't1',
              ticket_group_id: 'g',
              adjusted_value: '1.00',
            }),
          ],
        },
      },
      tz,
    );
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({ event: 'General Admission', when: 'Tue, May 5, 2026 at 10:00 AM', ticketCount: 1, orderIds: ['o1'] });
    expect(views[0].tickets.map((t) => [t.id, t.admitName])).toEqual([['a', 'Ada Lovelace']]);
  });

  it('my_account_pages gates the pages; absent means all', () => {
    expect([...enabledAccountPages(undefined)]).toEqual(['my_profile', 'upcoming_events', 'recent_orders']);
    expect([...enabledAccountPages(['recent_orders'])]).toEqual(['recent_orders']);
    expect([...enabledAccountPages([])]).toEqual([]);
  });
});
