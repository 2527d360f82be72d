import { describe, expect, it } from 'vitest';
import {
  availableWallets,
  clickResolveDetails,
  expressCheckoutOptions,
  paymentTypeOf,
  purchaserComplete,
  walletOf,
} from '../../src/screens/checkout/express-checkout';
import en from '../../locales/en/translation.json';

/**
 * The Express Checkout Element's logic (issue 14; spec sections 2, 4, 5 and 9) without Stripe.js, which these machines
 * cannot load: the element's options, what its click answers, which wallet paid, and when the buttons show. The element
 * itself (Apple Pay, Google Pay) needs a real wallet in a real browser and is not run here.
 */
const texts = {
  total: en.payment.walletTotal,
  shipping: en.payment.walletShippingEmail,
  shippingDetail: en.payment.walletShippingEmailDetail,
};

describe('Express Checkout Element', () => {
  it('is 48 px high, offers Apple Pay then Google Pay before the card, and no other express method', () => {
    const options = expressCheckoutOptions();
    expect(options.buttonHeight).toBe(48);
    expect(options.paymentMethodOrder).toEqual(['apple_pay', 'google_pay', 'card']);
    expect(options.paymentMethods).toEqual({
      applePay: 'auto',
      googlePay: 'auto',
      link: 'never',
      paypal: 'never',
      amazonPay: 'never',
      klarna: 'never',
    });
  });

  it("answers the click with the total in minor units and the one shipping option 'Email' at 0", () => {
    expect(clickResolveDetails(2550, texts)).toEqual({
      emailRequired: true,
      shippingAddressRequired: true,
      shippingRates: [{ id: 'email', amount: 0, displayName: 'Email', deliveryEstimate: 'Your order will be sent by email.' }],
      lineItems: [{ name: 'Your order', amount: 2550 }],
    });
    // Decimal amounts never reach a wallet.
    expect(() => clickResolveDetails(25.5, texts)).toThrow(/minor units/);
  });

  it('names the wallet apple, google or none, and the payment type card, apple_pay or google_pay', () => {
    expect(walletOf('apple_pay')).toBe('apple');
    expect(walletOf('google_pay')).toBe('google');
    expect(walletOf('link')).toBe('none');
    expect(walletOf(undefined)).toBe('none');
    expect(paymentTypeOf('apple')).toBe('apple_pay');
    expect(paymentTypeOf('google')).toBe('google_pay');
    expect(paymentTypeOf('none')).toBe('card');
    expect(paymentTypeOf(undefined)).toBe('card');
  });

  it('shows the buttons only when the browser has a wallet', () => {
    expect(availableWallets(undefined)).toEqual([]);
    expect(availableWallets({ applePay: false, googlePay: false })).toEqual([]);
    expect(availableWallets({ applePay: true, googlePay: false })).toEqual(['apple']);
    expect(availableWallets({ applePay: true, googlePay: true })).toEqual(['apple', 'google']);
  });

  it("lets a wallet's click through only with the purchaser's names and matching e-mails", () => {
    const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', email_confirm: 'ADA@example.com ' };
    expect(purchaserComplete(ada)).toBe(true);
    expect(purchaserComplete(null)).toBe(true);
    expect(purchaserComplete({ ...ada, first_name: ' ' })).toBe(false);
    expect(purchaserComplete({ ...ada, email_confirm: 'ada@example.org' })).toBe(false);
    expect(purchaserComplete({})).toBe(false);
  });
});
