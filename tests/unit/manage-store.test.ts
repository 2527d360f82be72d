import { describe, expect, it } from 'vitest';
import { ManageStore } from '../../src/stores/ManageStore';
import { fakeServer, route } from '../helpers/fake-api';

const ORDER = '11111111-1111-4111-8111-111111111111';
const EDIT = '22222222-2222-4222-8222-222222222222';

/** GET self_edit's answer with this browser's edit costing `outstanding` (null: no edit). */
const answer = (outstanding: string | null) => ({
  ticket_order: { _data: [{ id: ORDER, order_number: '7' }], _count: 1 },
  self_edit: {
    _data: [
      {
        ticket_order_id: ORDER,
        mode: 'edit_order',
        cancelable: false,
        reason: 'not_free',
        cancelable_ticket_ids: [],
        horizon_hours: 24,
        refund_amount: '0.00',
        reschedulable_ticket_ids: [],
        edit: outstanding === null ? null : { cart_id: EDIT, expires_at: null, expires_in: 600, outstanding, moves: [] },
      },
    ],
    _count: 1,
  },
});

/** Spec section 4, confirming an edit, as the manage screen's store does it. */
describe('ManageStore: confirm and discard an edit', () => {
  const store = (outstanding: string, after: string | null = null, fail?: { status: number; code: string }) => {
    let confirmed = false;
    const server = fakeServer((config) => {
      const r = route(config);
      if (r === `GET ticket_order/${ORDER}/self_edit`) return { status: 200, data: answer(confirmed ? after : outstanding) };
      if (r === `POST cart/${EDIT}/guest_checkout`) {
        if (fail) return { status: fail.status, data: { _data: [{ _code: fail.code }] } };
        confirmed = true;
        return { status: 200, data: {} };
      }
      if (r === `POST ticket_order/${ORDER}/email`) return { status: 200, data: {} };
      if (r === `DELETE cart/${EDIT}`) {
        confirmed = true;
        return { status: 200, data: {} };
      }
      return { status: 404, data: { _data: [{ _code: 'not_found' }] } };
    });
    const s = new ManageStore({ api: server.api, orderId: ORDER, signature: 'S'.repeat(43), currency: 'USD' });
    s.start();
    return { s, seen: server.seen };
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('nothing outstanding: checks out free, then asks for the update mail with the link signature, and reads the order again', async () => {
    const { s, seen } = store('0.00');
    await settle();
    expect(s.edit?.cart_id).toBe(EDIT);
    expect(await s.confirmEdit()).toBeNull();
    expect(s.editState).toBe('saved');
    expect(s.edit).toBeNull();
    const calls = seen.map((q) => `${q.method} ${q.url}`);
    expect(calls).toEqual([
      `GET ticket_order/${ORDER}/self_edit`,
      `POST cart/${EDIT}/guest_checkout`,
      `GET ticket_order/${ORDER}/self_edit`,
    ]);
    // The booking mails the order's update itself (checkout: an edit's order_update), once.
    expect(seen[1].body).toEqual({ amount: '0.00', gateway_id: 'free', send_email: true });
  });

  it('something a card can pay: the checkout pays it (/manage/{id}/confirm); too little for a card: payment not supported', async () => {
    const pay = store('5.00');
    await settle();
    expect(await pay.s.confirmEdit()).toBe('pay');
    expect(pay.seen.filter((q) => q.method === 'POST')).toEqual([]);
    const tiny = store('0.20');
    await settle();
    expect(await tiny.s.confirmEdit()).toBeNull();
    expect(tiny.s.editMessage).toBe('errors.paymentNotSupported');
  });

  it('an edit whose hold ran out says to start again; discarding deletes the edit cart', async () => {
    const late = store('0.00', null, { status: 410, code: 'cart_expired' });
    await settle();
    await late.s.confirmEdit();
    expect(late.s.editMessage).toBe('manage.editExpired');
    const drop = store('5.00');
    await settle();
    await drop.s.discardEdit();
    expect(drop.s.editState).toBe('discarded');
    expect(drop.seen.some((q) => q.method === 'DELETE' && q.url === `cart/${EDIT}`)).toBe(true);
  });
});
