import { describe, expect, it } from 'vitest';
import { fakeServer, route, type Handler } from '../helpers/fake-api';
import { CartStore } from '../../src/stores/CartStore';
import { PromoStore } from '../../src/stores/PromoStore';
import {
  bestDiscount,
  forgetPendingCodes,
  modDiscount,
  pendingCodes,
  promoCodeProblem,
  rememberCodes,
  splitCodes,
} from '../../src/domain/promo';
import { promoMessageKey } from '../../src/domain/promo-messages';

const CART = '11111111-1111-4111-8111-111111111111';
const refusal = (status: number, ...codes: string[]) => ({
  status,
  data: { _data: codes.map((c) => ({ _code: c, _context: 'apply_code' })) },
});
function cartBody(mods: Array<{ code: string; name: string; discount: string }> = [], cartmod = '0.00') {
  return {
    status: 200,
    data: {
      cart: {
        _count: 1,
        _data: [
          {
            id: CART,
            cart_number: '7',
            state: 'pending',
            expires_in: 900,
            cart_fees: {
              gateway_id: 'test',
              account_id: 's',
              grand_totals: {
                total_before_cartmod_price: '60.00',
                total_fee_fixed_outside: '0.00',
                total_fee_percent_outside: '0.00',
                total_cartmod_amount: cartmod,
                total_payments: '0.00',
                total_outstanding: (60 - Number(cartmod)).toFixed(2),
              },
            },
            items: [],
            cart_mods: mods.map((m, i) => ({ id: `m${i}`, discount_type: 'percent', tickets_affected: 1, ...m })),
            ticket_order_ids: [],
          },
        ],
      },
      ticket: { _count: 0, _data: [] },
    },
  };
}

function setup(handler: Handler, loggedIn = false) {
  const server = fakeServer(handler);
  const cart = new CartStore({ api: server.api, storage: null, sellerKey: 's' });
  cart.accept(cartBody().data as never);
  const promo = new PromoStore({ api: server.api, cart, isLoggedIn: () => loggedIn });
  return { cart, promo, ...server };
}

describe('promo rules', () => {
  it('checks the field: trimmed, required, 2 to 35 characters', () => {
    expect(promoCodeProblem('   ')).toBe('required');
    expect(promoCodeProblem(' a ')).toBe('min');
    expect(promoCodeProblem(' ab ')).toBeNull();
    expect(promoCodeProblem('A'.repeat(35))).toBeNull();
    expect(promoCodeProblem('A'.repeat(36))).toBe('max');
  });
  it('splits a comma list of codes (the URL code parameter)', () => {
    expect(splitCodes(' SPRING10, family5,,spring10 ,x')).toEqual(['SPRING10', 'family5']);
    expect(splitCodes(null)).toEqual([]);
  });
  it('discounts: percent rounded, amounts capped at the price, the best single mod wins', () => {
    expect(modDiscount({ discount_type: 'percent', discount_value: 10, ticket_type_ids: [] }, 2495)).toBe(250);
    expect(modDiscount({ discount_type: 'amount', discount_value: 500, ticket_type_ids: [] }, 300)).toBe(300);
    expect(modDiscount({ discount_type: 'price', discount_value: 1000, ticket_type_ids: [] }, 2500)).toBe(1500);
    const mods = [
      { id: 'pct', discount_type: 'percent' as const, discount_value: 10, ticket_type_ids: ['adult'] },
      { id: 'amt', discount_type: 'amount' as const, discount_value: 500, ticket_type_ids: [] },
    ];
    expect(bestDiscount(mods, { ticket_type_id: 'adult', handler: 'tickets' }, 10000)?.mod.id).toBe('pct');
    expect(bestDiscount(mods, { ticket_type_id: 'adult', handler: 'tickets' }, 2500)?.mod.id).toBe('amt');
    // Gift cards and donations are never discounted.
    expect(bestDiscount(mods, { ticket_type_id: 'gc', handler: 'ledger' }, 2500)).toBeNull();
    // A membership only by a mod that names its level.
    expect(bestDiscount(mods, { ticket_type_id: 'level', handler: 'membership' }, 2500)).toBeNull();
    const named = [{ id: 'lvl', discount_type: 'percent' as const, discount_value: 10, ticket_type_ids: ['level'] }];
    expect(bestDiscount(named, { ticket_type_id: 'level', handler: 'membership' }, 2500)?.amount).toBe(250);
  });
  it('messages by code, else the generic one', () => {
    expect(promoMessageKey('code_exhausted')).toBe('promo.errors.exhausted');
    expect(promoMessageKey('code_not_found')).toBe('promo.errors.notFound');
    expect(promoMessageKey('no_code_benefit')).toBe('promo.errors.noBenefit');
    expect(promoMessageKey('internal_error')).toBe('promo.errors.unknown');
  });
});

describe('PromoStore', () => {
  it('refuses a bad code locally and sends nothing', async () => {
    const { promo, seen } = setup(() => cartBody());
    promo.setInput(' x ');
    expect(await promo.apply()).toBe(false);
    expect(promo.error).toEqual({ key: 'promo.errors.minLength', values: { limit: 2, code: 'x' } });
    expect(seen).toHaveLength(0);
    promo.setInput('SPRING10');
    expect(promo.error).toBeNull();
  });

  it('applies a trimmed code to the guest cart, takes the priced cart and says so', async () => {
    const { promo, cart, seen } = setup((c) =>
      route(c) === `POST cart/${CART}/apply_code`
        ? cartBody([{ code: 'SPRING10', name: 'Spring', discount: '6.00' }], '6.00')
        : refusal(500, 'x'),
    );
    promo.setInput('  spring10 ');
    expect(await promo.apply()).toBe(true);
    expect(seen[0].body).toEqual({ require_benefit: true, codes: ['spring10'] });
    expect(cart.cart?.cart_fees.grand_totals.total_outstanding).toBe('54.00');
    expect(promo.applied.map((m) => m.code)).toEqual(['SPRING10']);
    expect(promo.input).toBe('');
    expect(promo.status).toEqual({ key: 'promo.applied', values: { code: 'SPRING10', name: 'Spring' } });
  });

  it('uses my/cart for a logged-in user and removes a code', async () => {
    const { promo, seen } = setup(() => cartBody(), true);
    expect(await promo.remove('SPRING10')).toBe(true);
    expect(seen[0]).toMatchObject({ url: `my/cart/${CART}/apply_code`, body: { codes: [], remove_codes: ['SPRING10'] } });
    expect(promo.status).toEqual({ key: 'promo.removed', values: { code: 'SPRING10' } });
  });

  it('shows the refusal of each spec code with the code typed; duplicate_code shows the second error when there is one', async () => {
    for (const [code, key] of [
      ['code_exhausted', 'promo.errors.exhausted'],
      ['code_not_found', 'promo.errors.notFound'],
      ['no_code_benefit', 'promo.errors.noBenefit'],
      ['duplicate_code', 'promo.errors.duplicate'],
      ['validation_failed', 'promo.errors.validation'],
      ['additional_info_validation_failed', 'promo.errors.additionalInfo'],
      ['cart_expired', 'promo.errors.unknown'],
    ]) {
      const { promo, cart } = setup(() => refusal(409, code));
      promo.setInput('FIRSTVISIT');
      expect(await promo.apply()).toBe(false);
      expect(promo.error).toEqual({ key, values: { code: 'FIRSTVISIT' } });
      expect(promo.input).toBe('FIRSTVISIT');
      expect(cart.cart?.cart_fees.grand_totals.total_cartmod_amount).toBe('0.00');
    }
    const { promo } = setup(() => refusal(409, 'duplicate_code', 'code_exhausted'));
    promo.setInput('FIRSTVISIT');
    await promo.apply();
    expect(promo.error?.key).toBe('promo.errors.exhausted');
  });
});

describe('codes from the URL', () => {
  it('are remembered for the tab (merged, without repeats) and applied one by one without require_benefit', async () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    };
    rememberCodes('?code=SPRING10,FAMILY5', storage);
    rememberCodes('?other=1&code=spring10,WINTER10', storage);
    expect(pendingCodes(storage)).toEqual(['SPRING10', 'FAMILY5', 'WINTER10']);
    forgetPendingCodes(storage);
    expect(pendingCodes(storage)).toEqual([]);

    const { promo, seen } = setup((c) => {
      const body = JSON.parse(c.data as string);
      if (body.codes[0] === 'WINTER10') return refusal(404, 'code_not_found');
      return cartBody([{ code: 'SPRING10', name: 'Spring', discount: '6.00' }], '6.00');
    });
    await promo.applyPending(['SPRING10', 'WINTER10']);
    expect(seen.map((r) => r.body)).toEqual([
      { require_benefit: false, codes: ['SPRING10'] },
      { require_benefit: false, codes: ['WINTER10'] },
    ]);
    expect(promo.error).toEqual({ key: 'promo.errors.notFound', values: { code: 'WINTER10' } });
    expect(promo.status).toEqual({ key: 'promo.applied', values: { code: 'SPRING10', name: 'Spring' } });
  });
});
