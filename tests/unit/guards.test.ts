import { describe, expect, it } from 'vitest';
import { homeDisabledGuard, isExternalTarget, myAccountGuard, runGuards, sellerPrefixGuard } from '../../src/domain/guards';

describe('guard 1: seller prefix required', () => {
  const rule = { require_seller_prefix: true, target: 'https://museum.example/' };

  it.each(['/', '/events', '/events/abc', '/my/events', '/checkout', '/manage/1/checkout'])(
    'sends %s to the target without a prefix',
    (pathname) => {
      expect(sellerPrefixGuard({ pathname }, rule, false)).toBe(rule.target);
    },
  );

  it.each(['/resend', '/my/profile', '/checkout/complete', '/membership'])('leaves %s alone', (pathname) => {
    expect(sellerPrefixGuard({ pathname }, rule, false)).toBeNull();
  });

  it('does nothing when a seller prefix is present or the rule is off', () => {
    expect(sellerPrefixGuard({ pathname: '/events' }, rule, true)).toBeNull();
    expect(sellerPrefixGuard({ pathname: '/events' }, { ...rule, require_seller_prefix: false }, false)).toBeNull();
    expect(sellerPrefixGuard({ pathname: '/events' }, { require_seller_prefix: true }, false)).toBeNull();
    expect(sellerPrefixGuard({ pathname: '/events' }, undefined, false)).toBeNull();
  });

  it('never redirects a path to itself', () => {
    expect(sellerPrefixGuard({ pathname: '/events' }, { require_seller_prefix: true, target: '/events' }, false)).toBeNull();
  });
});

describe('guard 2: home disabled', () => {
  const home = { enabled: false, target: '/membership' };
  it('sends the root and /events to the target', () => {
    expect(homeDisabledGuard({ pathname: '/' }, home)).toBe('/membership');
    expect(homeDisabledGuard({ pathname: '/events' }, home)).toBe('/membership');
  });
  it('leaves event detail and other paths alone', () => {
    expect(homeDisabledGuard({ pathname: '/events/123' }, home)).toBeNull();
    expect(homeDisabledGuard({ pathname: '/checkout' }, home)).toBeNull();
  });
  it('does nothing when home is enabled, unset or has no target', () => {
    expect(homeDisabledGuard({ pathname: '/' }, { enabled: true, target: '/x' })).toBeNull();
    expect(homeDisabledGuard({ pathname: '/' }, undefined)).toBeNull();
    expect(homeDisabledGuard({ pathname: '/' }, { enabled: false })).toBeNull();
  });
});

describe('guard 3: /my', () => {
  it('goes to membership for an active member and profile otherwise, keeping query and hash', () => {
    expect(myAccountGuard({ pathname: '/my', search: '?a=1', hash: '#x' }, true)).toBe('/my/membership?a=1#x');
    expect(myAccountGuard({ pathname: '/my', search: '?a=1', hash: '#x' }, false)).toBe('/my/profile?a=1#x');
    expect(myAccountGuard({ pathname: '/my' }, false)).toBe('/my/profile');
  });
  it('only applies to /my itself', () => {
    expect(myAccountGuard({ pathname: '/my/orders' }, true)).toBeNull();
    expect(myAccountGuard({ pathname: '/mystery' }, true)).toBeNull();
  });
});

describe('runGuards', () => {
  it('applies the guards in order, first match wins', () => {
    const ctx = {
      redirect: { require_seller_prefix: true, target: '/one' },
      home: { enabled: false, target: '/two' },
      hasSellerPrefix: false,
      isActiveMember: false,
    };
    expect(runGuards({ pathname: '/events' }, ctx)).toBe('/one');
    expect(runGuards({ pathname: '/events' }, { ...ctx, hasSellerPrefix: true })).toBe('/two');
    expect(runGuards({ pathname: '/my' }, ctx)).toBe('/my/profile');
    expect(runGuards({ pathname: '/resend' }, ctx)).toBeNull();
  });
  it('recognises external targets', () => {
    expect(isExternalTarget('https://x.example/a')).toBe(true);
    expect(isExternalTarget('/events')).toBe(false);
  });
});
