import { describe, expect, it } from 'vitest';
import {
  basenameFor,
  candidateSellerSlug,
  landingScreenOf,
  stripSellerPrefix,
  stripTrailingSlash,
  withSellerPrefix,
} from '../../src/domain/paths';
import { redirectFor } from '../../src/app/redirects';

describe('stripTrailingSlash', () => {
  it.each([
    ['/events/', '/events'],
    ['/events//', '/events'],
    ['/', '/'],
    ['', '/'],
    ['/events', '/events'],
    ['/demo/events/12/', '/demo/events/12'],
    ['//', '/'],
  ])('%s -> %s', (input, output) => expect(stripTrailingSlash(input)).toBe(output));
});

describe('seller slug prefix', () => {
  it('offers a first segment that looks like a slug and is not a route', () => {
    expect(candidateSellerSlug('/demo/events')).toBe('demo');
    expect(candidateSellerSlug('/demo')).toBe('demo');
    expect(candidateSellerSlug('/Demo/events')).toBe('demo');
    expect(candidateSellerSlug('/no-such-page')).toBe('no-such-page');
  });
  it('never treats a route segment or a non-slug as a seller', () => {
    expect(candidateSellerSlug('/events')).toBeNull();
    expect(candidateSellerSlug('/checkout/abc')).toBeNull();
    expect(candidateSellerSlug('/my')).toBeNull();
    expect(candidateSellerSlug('/')).toBeNull();
    expect(candidateSellerSlug('/hello%20world')).toBeNull();
    expect(candidateSellerSlug('/Über')).toBeNull();
  });
  it('adds and removes the prefix', () => {
    expect(stripSellerPrefix('/demo/events', 'demo')).toBe('/events');
    expect(stripSellerPrefix('/demo', 'demo')).toBe('/');
    expect(stripSellerPrefix('/demo/', 'demo')).toBe('/');
    expect(stripSellerPrefix('/demonstration', 'demo')).toBe('/demonstration');
    expect(stripSellerPrefix('/events', null)).toBe('/events');
    expect(withSellerPrefix('/events', 'demo')).toBe('/demo/events');
    expect(withSellerPrefix('/', 'demo')).toBe('/demo');
    expect(withSellerPrefix('/events', null)).toBe('/events');
    expect(basenameFor('demo')).toBe('/demo');
    expect(basenameFor(null)).toBeUndefined();
  });
});

describe('redirectFor', () => {
  const ctx = { hasSellerPrefix: false, isActiveMember: false };
  it('removes a trailing slash and keeps the query and hash', () => {
    expect(redirectFor({ pathname: '/events/', search: '?date=today', hash: '#x' }, ctx)).toBe('/events?date=today#x');
  });
  it('leaves a clean path alone', () => {
    expect(redirectFor({ pathname: '/events', search: '', hash: '' }, ctx)).toBeNull();
    expect(redirectFor({ pathname: '/', search: '', hash: '' }, ctx)).toBeNull();
  });
  it('lets a guard decide before the slash rule', () => {
    expect(redirectFor({ pathname: '/my/', search: '?q=1', hash: '' }, ctx)).toBe('/my/profile?q=1');
  });
});

describe('landingScreenOf', () => {
  it('names the screen of the pages people arrive at, with or without a seller prefix', () => {
    expect(landingScreenOf('/events')).toBe('events');
    expect(landingScreenOf('/events/')).toBe('events');
    expect(landingScreenOf('/events/e1')).toBe('event-detail');
    expect(landingScreenOf('/events/e1/reserve')).toBe('event-detail');
    expect(landingScreenOf('/checkout/c1')).toBe('checkout');
    expect(landingScreenOf('/checkout')).toBe('checkout');
    expect(landingScreenOf('/city-museum/events/e1')).toBe('event-detail');
    expect(landingScreenOf('/city-museum/checkout/c1')).toBe('checkout');
  });
  it('names none for the other pages and the completion', () => {
    expect(landingScreenOf('/')).toBeNull();
    expect(landingScreenOf('/checkout/complete')).toBeNull();
    expect(landingScreenOf('/my/account')).toBeNull();
    expect(landingScreenOf('/manage/o1')).toBeNull();
  });
});
