import { describe, expect, it } from 'vitest';
import {
  anchorProblem,
  dependencies,
  fitsWindow,
  followsAnchor,
  isOfferedAfter,
  upsellSettings,
  visitWindow,
  type CartVisit,
} from '../../src/domain/upsell';

const TZ = 'America/New_York';
const settings = upsellSettings({
  admission_event_id: 'ga',
  upsells: { enabled: true, anchor_categories: ['admission'], upsell_categories: ['exhibition', 'tour'], visit_time: 'same_date' },
});
const ga = { id: 'ga', category: 'admission' };
const ocean = { id: 'ocean', category: 'exhibition', config: { upsell: { requires_anchor: true, anchor_event_ids: ['ga'] } } };
const talk = { id: 'talk', category: 'tour', meta: { tickets_must_match_anchor_tickets: true } };
const concert = { id: 'concert', category: 'performance' };

describe('upsell settings and offers', () => {
  it('reads the seller config, with same_date and enabled as defaults', () => {
    expect(upsellSettings({})).toEqual({
      enabled: true,
      skip: false,
      admissionEventId: null,
      anchorCategories: [],
      upsellCategories: [],
      visitTime: 'same_date',
    });
    expect(upsellSettings({ upsells: { visit_time: 'soon', skip: true } })).toMatchObject({ visitTime: 'same_date', skip: true });
  });

  it('offers events of the upsell categories and events naming the anchor, never an anchor or another event', () => {
    expect(isOfferedAfter(ocean, ga, settings)).toBe(true);
    expect(isOfferedAfter(talk, ga, settings)).toBe(true);
    expect(isOfferedAfter(concert, ga, settings)).toBe(false);
    expect(isOfferedAfter({ id: 'ga2', category: 'admission' }, ga, settings)).toBe(false);
    // an event naming its own anchors follows only those
    expect(followsAnchor(ocean, { id: 'other-admission', category: 'admission' }, settings)).toBe(false);
    expect(followsAnchor(talk, { id: 'other-admission', category: 'admission' }, settings)).toBe(true);
    expect(followsAnchor(talk, concert, settings)).toBe(false);
  });
});

describe('visit_time windows', () => {
  // 10:00-10:30 New York on 1 December 2026 (UTC-5)
  const anchor = { start: '2026-12-01T15:00:00Z', end: '2026-12-01T15:30:00Z' };
  const fits = (mode: Parameters<typeof visitWindow>[1], iso: string) => fitsWindow(iso, visitWindow(anchor, mode, TZ));

  it('timeslot: starts within the anchor slot', () => {
    expect(fits('timeslot', '2026-12-01T15:00:00Z')).toBe(true);
    expect(fits('timeslot', '2026-12-01T15:29:00Z')).toBe(true);
    expect(fits('timeslot', '2026-12-01T15:30:00Z')).toBe(false);
    expect(fits('timeslot', '2026-12-01T14:59:00Z')).toBe(false);
  });
  it('same_start: within one minute either side', () => {
    expect(fits('same_start', '2026-12-01T14:59:00Z')).toBe(true);
    expect(fits('same_start', '2026-12-01T15:01:00Z')).toBe(true);
    expect(fits('same_start', '2026-12-01T15:01:01Z')).toBe(false);
    expect(fits('same_start', '2026-12-01T14:58:59Z')).toBe(false);
  });
  it("same_date and until_close: the venue's day, from midnight or from the anchor's start", () => {
    // 23:30 New York is 04:30 UTC the next day: still the anchor's date
    expect(fits('same_date', '2026-12-02T04:30:00Z')).toBe(true);
    expect(fits('same_date', '2026-12-01T05:00:00Z')).toBe(true);
    expect(fits('same_date', '2026-12-02T05:00:00Z')).toBe(false);
    expect(fits('until_close', '2026-12-02T04:30:00Z')).toBe(true);
    expect(fits('until_close', '2026-12-01T14:30:00Z')).toBe(false);
  });
  it('an anchor for any day fits every time', () => {
    expect(visitWindow({ start: null }, 'timeslot', TZ)).toBeNull();
    expect(fitsWindow('2030-01-01T00:00:00Z', null)).toBe(true);
  });
});

describe('anchor rules over a cart', () => {
  const visit = (
    event: { id: string; category: string; config?: unknown; meta?: unknown },
    start: string | null,
    count: number,
  ): CartVisit => ({
    eventId: event.id,
    category: event.category,
    config: event.config,
    meta: event.meta,
    sessionId: start ? `${event.id}@${start}` : null,
    start,
    end: null,
    timezone: TZ,
    count,
  });
  const admission = visit(ga, '2026-12-01T15:00:00Z', 3);

  it('an add-on that needs an anchor has one on its date, or is anchor_required', () => {
    expect(anchorProblem([visit(ocean, '2026-12-01T16:00:00Z', 3)], settings)).toMatchObject({
      code: 'anchor_required',
      visit_time: 'same_date',
    });
    expect(anchorProblem([admission, visit(ocean, '2026-12-02T16:00:00Z', 3)], settings)?.code).toBe('anchor_required');
    expect(anchorProblem([admission, visit(ocean, '2026-12-01T16:00:00Z', 3)], settings)).toBeNull();
  });
  it('tickets must match an anchor it follows; with none in the cart the rule has nothing to match', () => {
    expect(anchorProblem([admission, visit(talk, '2026-12-01T18:00:00Z', 2)], settings)).toEqual({
      code: 'tickets_must_match_anchor_tickets',
      event_template_id: 'talk',
      event_session_id: 'talk@2026-12-01T18:00:00Z',
      count: 2,
      anchor_counts: [3],
    });
    expect(anchorProblem([visit(talk, '2026-12-01T18:00:00Z', 2)], settings)).toBeNull();
  });
  it('the anchors an add-on follows are its dependencies', () => {
    const card = visit({ id: 'card', category: 'giftcard' }, null, 1);
    expect([...dependencies([admission, card], settings)]).toEqual([]);
    expect([...dependencies([admission, card, visit(ocean, '2026-12-01T16:00:00Z', 3)], settings)]).toEqual([0]);
  });
});
