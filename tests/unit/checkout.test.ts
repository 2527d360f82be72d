import { describe, expect, it } from 'vitest';
import validator from '@rjsf/validator-ajv8';
import type { RJSFValidationError } from '@rjsf/utils';
import { createI18n } from '../../src/i18n';
import translation from '../../locales/en/translation.json';
import { ApiError } from '../../src/api/errors';
import {
  classifyCheckoutError,
  emailsMatch,
  parseExpiry,
  paymentReasonKey,
  purchaserBody,
  validateCard,
} from '../../src/domain/checkout-rules';
import { translateErrors } from '../../src/forms/errors';
import { decimalToMinor } from '../../src/domain/pricing';
import { identityErrorMessages, identitySchema, validateIdentity } from '../../src/screens/checkout/identity-form';
import { completionPath, orderIdsOf } from '../../src/screens/checkout/paths';

const i18n = createI18n(translation);
const t = i18n.t.bind(i18n);

/** The identity form exactly as the checkout validates it: the JSON schema, the custom rules, translated errors. */
function validate(data: Record<string, unknown>) {
  const { errors } = validator.validateFormData(
    data,
    identitySchema,
    validateIdentity(t) as never,
    (e: RJSFValidationError[]) => translateErrors(e as never, t, identityErrorMessages) as RJSFValidationError[],
  );
  const byField: Record<string, string[]> = {};
  for (const e of errors) {
    const field = (e.property ?? '').replace(/^\./, '') || String(e.params?.missingProperty ?? '');
    (byField[field] ??= []).push(e.message ?? '');
  }
  return byField;
}

const valid = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', email_confirm: 'ADA@Example.com' };

describe('identity form (spec section 5)', () => {
  it('accepts a complete purchaser; email confirmation ignores case', () => {
    expect(validate(valid)).toEqual({});
    expect(validate({ ...valid, phone: '+1 212 555 0100', zip_code: 'SW1A 1AA' })).toEqual({});
  });

  it('requires names and both emails', () => {
    const errors = validate({});
    expect(Object.keys(errors).sort()).toEqual(['email', 'email_confirm', 'first_name', 'last_name']);
    expect(errors.first_name).toEqual(['This field is required.']);
  });

  it('limits names to 50, email to 254, phone to 50', () => {
    const errors = validate({ ...valid, first_name: 'x'.repeat(51), last_name: 'y'.repeat(50), phone: '1'.repeat(51) });
    expect(errors.first_name).toEqual(['Please use at most 50 characters.']);
    expect(errors.last_name).toBeUndefined();
    expect(errors.phone).toEqual(['Please use at most 50 characters.']);
    const long = `${'a'.repeat(250)}@b.co`;
    expect(validate({ ...valid, email: long, email_confirm: long }).email).toContain('Please use at most 254 characters.');
  });

  it("says 'Email addresses must match.' when they differ", () => {
    expect(validate({ ...valid, email_confirm: 'someone@example.com' }).email_confirm).toEqual(['Email addresses must match.']);
  });

  it('refuses a malformed email and names of blanks only', () => {
    expect(validate({ ...valid, email: 'ada', email_confirm: 'ada' }).email).toEqual(['Email address is not valid.']);
    expect(validate({ ...valid, first_name: '   ' }).first_name).toEqual(['This field is required.']);
  });

  it.each([
    ['1234', true],
    ['10001', true],
    ['SW1A 1AA', true],
    ['12345-6789', true],
    ['A1B-2C3', true],
    ['123', false],
    ['12345678901', false],
    ['12 -34', false],
    ['-1234', false],
    ['1234 ', false],
    ['12_34', false],
  ])('zip %j valid: %s', (zip, ok) => {
    const errors = validate({ ...valid, zip_code: zip });
    expect(errors.zip_code === undefined).toBe(ok);
    if (!ok) expect(errors.zip_code[0]).toMatch(/4 to 10 letters or digits/);
  });
});

describe('purchaser body', () => {
  it('trims and leaves out empty optional fields', () => {
    expect(purchaserBody({ ...valid, first_name: ' Ada ', phone: '  ', zip_code: ' 10001 ' })).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      email_confirm: 'ADA@Example.com',
      zip_code: '10001',
    });
    expect(emailsMatch(' A@B.co ', 'a@b.co')).toBe(true);
  });
});

describe('test-mode card fields', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  it('parses MM/YY and MM/YYYY', () => {
    expect(parseExpiry('12/34')).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry(' 1 / 2030 ')).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry('13/30')).toBeNull();
    // Typed without the slash (issue 16): the digits alone, and a dash or spaces, are read as people mean them.
    expect(parseExpiry('1230')).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry('0731')).toEqual({ month: 7, year: 2031 });
    expect(parseExpiry('122030')).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry('12 30')).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry('12-30')).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry('1330')).toBeNull();
    expect(parseExpiry('130')).toBeNull();
    expect(parseExpiry('12/3')).toBeNull();
  });

  it('checks the shape of number, expiry and CVC', () => {
    expect(validateCard({ number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }, now)).toEqual({});
    expect(validateCard({ number: '', expiry: '', cvc: '' }, now)).toEqual({ number: 'required', expiry: 'required', cvc: 'required' });
    expect(validateCard({ number: '4242 abcd', expiry: '10/26', cvc: '12' }, now)).toEqual({
      number: 'invalid',
      expiry: 'invalid',
      cvc: 'invalid',
    });
    // A card is good through its expiry month.
    expect(validateCard({ number: '4242424242424242', expiry: '11/26', cvc: '1234' }, now)).toEqual({});
  });
});

describe('checkout failures (spec sections 4 and 8)', () => {
  it('classifies what the checkout answered', () => {
    expect(classifyCheckoutError(new ApiError(402, 'intent_requires_action', 'confirm', 'payment', { intent_id: 'ti_1' }))).toEqual({
      kind: 'requires_action',
      intentId: 'ti_1',
      clientSecret: null,
    });
    // Stripe's intent comes with the client secret the page confirms it with.
    expect(
      classifyCheckoutError(
        new ApiError(402, 'intent_requires_action', 'confirm', 'payment', { intent_id: 'pi_1', client_secret: 'pi_1_secret' }),
      ),
    ).toEqual({ kind: 'requires_action', intentId: 'pi_1', clientSecret: 'pi_1_secret' });
    // The API names the refusal; the locale words it (payment.reasons.card_declined).
    expect(classifyCheckoutError(new ApiError(402, 'card_declined', 'Your card was declined.', 'payment'))).toEqual({
      kind: 'payment',
      providerMessage: '',
      reason: 'card_declined',
    });
    expect(paymentReasonKey('card_declined')).toBe('payment.reasons.card_declined');
    expect(t(paymentReasonKey('incorrect_cvc')!)).toBe("Your card's security code is incorrect.");
    expect(paymentReasonKey('payment_failed')).toBeNull();
    expect(classifyCheckoutError(new ApiError(410, 'cart_expired', 'x'))).toEqual({ kind: 'expired' });
    expect(classifyCheckoutError(new ApiError(409, 'cart_booked', 'x', undefined, { ticket_order_id: 'o1' }))).toEqual({
      kind: 'booked',
      orderId: 'o1',
    });
    expect(
      classifyCheckoutError(new ApiError(400, 'validation_failed', 'Email address is not valid.', 'checkout', { field: 'email' })),
    ).toEqual({ kind: 'validation', field: 'email' });
    expect(classifyCheckoutError(new ApiError(0, 'network_error', 'x'))).toEqual({ kind: 'unexpected' });
  });

  it("formats the payment message per spec: 'Your card has not been charged. … Please edit your payment details and try again.'", () => {
    expect(t('payment.failed', { message: 'Your card was declined.' })).toBe(
      'Your card has not been charged. Your card was declined. Please edit your payment details and try again.',
    );
    expect(t('checkout.errorSummary')).toBe(
      'There were errors found in the information you submitted. Please address the errors and re-submit the form.',
    );
  });
});

describe('completion paths and money', () => {
  it('round-trips order ids through the query', () => {
    const path = completionPath(['a', 'b']);
    expect(path).toBe('/checkout/complete?orderIds=a%2Cb');
    expect(orderIdsOf(new URLSearchParams(path.split('?')[1]))).toEqual(['a', 'b']);
    expect(orderIdsOf(new URLSearchParams(''))).toEqual([]);
    expect(orderIdsOf(new URLSearchParams('orderIds=%20,'))).toEqual([]);
  });

  it('reads wire money', () => {
    expect(decimalToMinor('63.00')).toBe(6300);
    expect(decimalToMinor('0.10')).toBe(10);
    expect(decimalToMinor(null)).toBe(0);
  });
});
