import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/contract/errors';
import { ERROR_MESSAGES, errorMessageKey } from '../../src/domain/error-messages';
import { RESERVE_ERROR_KEYS, reserveErrorMessage } from '../../src/domain/reservation-errors';

const strings = JSON.parse(readFileSync('locales/en/translation.json', 'utf8'));
const lookup = (key: string) => key.split('.').reduce<unknown>((o, part) => (o as Record<string, unknown> | undefined)?.[part], strings);

describe('the one table from _code to message (spec section 8)', () => {
  it('has a message in translation.json for every code the contract lists', () => {
    for (const code of ERROR_CODES) {
      const key = (ERROR_MESSAGES as Record<string, string>)[code];
      expect(key, code).toBeTruthy();
      expect(typeof lookup(key), `${code} -> ${key}`).toBe('string');
    }
    expect(Object.keys(ERROR_MESSAGES).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('words a code another API sends with the generic sentence', () => {
    expect(errorMessageKey({ _code: 'something_else' })).toBe('errors.unexpected');
    expect(lookup('errors.unexpected')).toBe('Sorry! Something unexpected happened. Please try again.');
  });

  it('the reservation flow takes its words from the table, a used-up code there being a CityPASS one, named', () => {
    expect(RESERVE_ERROR_KEYS.max_tickets_per_order_exceeded).toBe('reserve.errors.maxTicketsPerOrder');
    expect(RESERVE_ERROR_KEYS.cart_expired).toBe('reserve.errors.cartExpired');
    expect(RESERVE_ERROR_KEYS.code_exhausted).toBe('reserve.errors.citypassUsed');
    expect(reserveErrorMessage({ status: 409, _code: 'code_exhausted', _extra: { codes: ['CPA10000001'], reason: 'citypass' } })).toEqual({
      key: 'reserve.errors.citypassUsed',
      params: { codes: 'CPA10000001' },
    });
    expect(RESERVE_ERROR_KEYS.rate_limited).toBeUndefined();
    for (const key of Object.values(RESERVE_ERROR_KEYS)) expect(typeof lookup(key!), key).toBe('string');
  });
});
