import { describe, expect, it } from 'vitest';
import { transferLinkPath, transferNextPath, transferTokenOf } from '../../src/domain/cart-transfer';

describe('cart transfer links (issue 17)', () => {
  it("follows a path of this storefront in 'next', and nothing else", () => {
    expect(transferNextPath(null)).toBe('/checkout');
    expect(transferNextPath('')).toBe('/checkout');
    expect(transferNextPath('/events/abc?date=2026-05-06')).toBe('/events/abc?date=2026-05-06');
    for (const elsewhere of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'events', 'javascript:alert(1)', '/a\nb'])
      expect(transferNextPath(elsewhere)).toBe('/checkout');
    expect(transferNextPath(`/${'a'.repeat(600)}`)).toBe('/checkout');
  });

  it('carries the token in the fragment and reads it back; a token of another form is none', () => {
    const token = 'A'.repeat(21) + '_-' + 'b'.repeat(20);
    const path = transferLinkPath('3f1e0c52-6b0b-4f5e-9d3a-1f2e3d4c5b6a', token);
    expect(path).toBe(`/transfer-cart/3f1e0c52-6b0b-4f5e-9d3a-1f2e3d4c5b6a#token=${token}`);
    expect(transferTokenOf(path.slice(path.indexOf('#')))).toBe(token);
    expect(transferTokenOf('#token=short')).toBeNull();
    expect(transferTokenOf('')).toBeNull();
  });
});
