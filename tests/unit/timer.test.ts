import { describe, expect, it } from 'vitest';
import { EXPIRY_MARGIN_SECONDS, isLocallyExpired, localExpiry, shouldOfferExtension, timerTier } from '../../src/domain/cart-rules';
import { clockText } from '../../src/domain/cart-rules';

describe('expiry timer tiers (spec sections 4 and 9)', () => {
  it.each([
    [20 * 60, 'hidden'],
    [20 * 60 - 1, 'info'],
    [301, 'info'],
    [300, 'warning'],
    [120, 'warning'],
    [119, 'error'],
    [30, 'error'],
    [29, 'error'],
    [0, 'error'],
  ] as const)('%i s left -> %s', (seconds, tier) => {
    expect(timerTier(seconds)).toBe(tier);
  });

  it('has a critical tier under 30 s only with the extend-timer flag', () => {
    expect(timerTier(29, true)).toBe('critical');
    expect(timerTier(30, true)).toBe('error');
    expect(timerTier(29, false)).toBe('error');
  });
});

describe('local expiry', () => {
  it('is expires_in minus the 5 s margin from when the answer arrived', () => {
    expect(EXPIRY_MARGIN_SECONDS).toBe(5);
    expect(localExpiry(900, 1_000)).toBe(1_000 + 895_000);
  });

  it('counts as expired only once now is past it', () => {
    expect(isLocallyExpired(10_000, 10_000)).toBe(false);
    expect(isLocallyExpired(10_000, 10_001)).toBe(true);
  });
});

describe('extend offer', () => {
  it('shows at 60 s or less, before the end, unless declined or already extended', () => {
    expect(shouldOfferExtension(61, false, false)).toBe(false);
    expect(shouldOfferExtension(60, false, false)).toBe(true);
    expect(shouldOfferExtension(1, false, false)).toBe(true);
    expect(shouldOfferExtension(0, false, false)).toBe(false);
    expect(shouldOfferExtension(30, true, false)).toBe(false);
    expect(shouldOfferExtension(30, false, true)).toBe(false);
  });
});

describe('clock text', () => {
  it.each([
    [0, '0:00'],
    [5, '0:05'],
    [65, '1:05'],
    [1199, '19:59'],
    [-3, '0:00'],
  ])('%i -> %s', (s, text) => {
    expect(clockText(s)).toBe(text);
  });
});
