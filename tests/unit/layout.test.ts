import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { layoutIssues, resolveLayout, SCREEN_SECTIONS } from '../../src/domain/layout';
import { donationPresets, parseDonation } from '../../src/domain/donation';
import { selectContentBlocks, type ContentBlockDef } from '../../src/domain/content-blocks';

const block = (name: string, over: Partial<ContentBlockDef> = {}): ContentBlockDef => ({
  name,
  slot: 'top',
  routes: ['events'],
  roles: ['anonymous', 'logged_in'],
  order: 0,
  html: `<p>${name}</p>`,
  ...over,
});

const names = (items: ReturnType<typeof resolveLayout>) => items.map((i) => (i.kind === 'section' ? i.name : `block:${i.block.name}`));

describe('layout registry', () => {
  it('uses the registry order when the seller configures nothing', () => {
    expect(names(resolveLayout('events', { blocks: [], role: 'anonymous' }))).toEqual([...SCREEN_SECTIONS.events]);
  });
  it('reorders and hides sections as configured, ignoring unknown names and duplicates', () => {
    const layout = { events: ['filters', 'heading', 'nonsense', 'filters', 'results'] };
    expect(names(resolveLayout('events', { configLayout: layout, blocks: [], role: 'anonymous' }))).toEqual([
      'filters',
      'heading',
      'results',
    ]);
  });
  it('the reservation flow is a screen of its own: spec order by default, reordered, a block before the submit, the warning hidden', () => {
    expect(names(resolveLayout('reservation', { blocks: [], role: 'anonymous' }))).toEqual([
      'admission',
      'dates',
      'sessions',
      'few-left',
      'messages',
      'quantities',
      'survey',
      'admit',
      'citypass',
      'seats',
      'submit',
    ]);
    const layout = {
      reservation: ['admission', 'dates', 'sessions', 'quantities', 'citypass', 'admit', 'survey', 'seats', 'block:visit-rules', 'submit'],
    };
    const blocks = [block('visit-rules', { routes: ['event-detail'] }), block('detail-top', { routes: ['event-detail'] })];
    // The event page's own blocks stay on the event page: only a placed block shows inside the flow.
    expect(names(resolveLayout('reservation', { configLayout: layout, blocks, role: 'anonymous' }))).toEqual([
      'admission',
      'dates',
      'sessions',
      'quantities',
      'citypass',
      'admit',
      'survey',
      'seats',
      'block:visit-rules',
      'submit',
    ]);
    // On the event page itself that block is placed already: not also in its slot; the other block keeps its slot.
    expect(names(resolveLayout('event-detail', { configLayout: layout, blocks, role: 'anonymous' }))).toEqual([
      'block:detail-top',
      ...SCREEN_SECTIONS['event-detail'],
    ]);
    // What a visitor needs cannot be hidden; the loader says so.
    expect(
      layoutIssues({ reservation: ['dates', 'sessions', 'quantities', 'survey', 'admit', 'citypass', 'seats', 'submit'] }, new Set()),
    ).toEqual([{ path: '/layout/reservation', message: "must list 'admission': reservation cannot work without it" }]);
  });
  it('only touches the configured screen', () => {
    const layout = { events: ['results'] };
    expect(names(resolveLayout('not-found', { configLayout: layout, blocks: [], role: 'anonymous' }))).toEqual(['message']);
  });
  it('places a block where block:NAME says', () => {
    const layout = { events: ['heading', 'block:promo', 'results'] };
    const items = resolveLayout('events', { configLayout: layout, blocks: [block('promo', { routes: ['home'] })], role: 'anonymous' });
    expect(names(items)).toEqual(['heading', 'block:promo', 'results']);
  });
  it('does not show a placed block to a role it is not for, nor an unknown block', () => {
    const layout = { events: ['heading', 'block:members', 'block:missing'] };
    const items = resolveLayout('events', {
      configLayout: layout,
      blocks: [block('members', { roles: ['logged_in'] })],
      role: 'anonymous',
    });
    expect(names(items)).toEqual(['heading']);
  });
  it('puts unplaced enabled blocks in their top or bottom slot, in order', () => {
    const blocks = [
      block('b2', { order: 2 }),
      block('b1', { order: 1 }),
      block('foot', { slot: 'bottom' }),
      block('elsewhere', { routes: ['home'] }),
    ];
    expect(names(resolveLayout('events', { blocks, role: 'anonymous' }))).toEqual([
      'block:b1',
      'block:b2',
      'heading',
      'upsell-heading',
      'filters',
      'results',
      'block:foot',
    ]);
  });
});

describe('content block selection', () => {
  const blocks = [
    block('welcome', { routes: ['events', 'event-detail'], roles: ['anonymous'], order: 1 }),
    block('members', { routes: ['events'], roles: ['logged_in'] }),
    block('everywhere', { routes: ['*'], order: 5 }),
    block('first', { routes: ['events'], order: -1 }),
  ];
  it('picks by route name and role, sorted by order', () => {
    expect(selectContentBlocks(blocks, 'events', 'anonymous').map((b) => b.name)).toEqual(['first', 'welcome', 'everywhere']);
    expect(selectContentBlocks(blocks, 'events', 'logged_in').map((b) => b.name)).toEqual(['first', 'members', 'everywhere']);
    expect(selectContentBlocks(blocks, 'event-detail', 'logged_in').map((b) => b.name)).toEqual(['everywhere']);
    expect(selectContentBlocks(blocks, 'checkout', 'anonymous').map((b) => b.name)).toEqual(['everywhere']);
  });
});

describe('layouts by role', () => {
  const layout = {
    events: { member: ['block:curator', 'heading', 'results'], logged_in: ['heading', 'results'], default: ['results'] },
  };
  const blocks = [block('curator', { routes: ['home'], roles: ['member'] })];
  it('takes the role’s own list, a member the logged-in one when it has none, everybody else the default', () => {
    expect(names(resolveLayout('events', { configLayout: layout, blocks, role: 'member' }))).toEqual([
      'block:curator',
      'heading',
      'results',
    ]);
    expect(names(resolveLayout('events', { configLayout: layout, blocks, role: 'logged_in' }))).toEqual(['heading', 'results']);
    expect(names(resolveLayout('events', { configLayout: layout, blocks, role: 'anonymous' }))).toEqual(['results']);
    const noMemberList = { events: { logged_in: ['filters'] } };
    expect(names(resolveLayout('events', { configLayout: noMemberList, blocks: [], role: 'member' }))).toEqual(['filters']);
    expect(names(resolveLayout('events', { configLayout: noMemberList, blocks: [], role: 'anonymous' }))).toEqual([
      ...SCREEN_SECTIONS.events,
    ]);
  });
  it('shows a block for logged-in visitors to members too, a member block to members only', () => {
    const both = [block('all-in', { roles: ['logged_in'] }), block('members', { roles: ['member'] })];
    expect(selectContentBlocks(both, 'events', 'member').map((b) => b.name)).toEqual(['all-in', 'members']);
    expect(selectContentBlocks(both, 'events', 'logged_in').map((b) => b.name)).toEqual(['all-in']);
  });
  it('moves but never hides a section the screen needs: the checkout draws its pay button anyway', () => {
    const hiding = { checkout: ['donation', 'purchaser'] };
    expect(names(resolveLayout('checkout', { configLayout: hiding, blocks: [], role: 'anonymous' }))).toEqual([
      'donation',
      'purchaser',
      'payment',
      'terms',
      'submit',
    ]);
  });
});

describe('the loader’s layout check', () => {
  const blocks = new Set(['curator']);
  it('names unknown screens, sections, roles and blocks, and sections a screen needs', () => {
    const issues = layoutIssues(
      {
        chekout: ['purchaser'],
        events: { member: ['block:curator', 'heading', 'reslts', 'block:nope'], staff: ['heading'] },
        checkout: ['purchaser', 'payment', 'terms'],
      },
      blocks,
    );
    expect(issues).toEqual([
      { path: '/layout/chekout', message: expect.stringContaining("unknown screen 'chekout'") },
      { path: '/layout/events/staff', message: expect.stringContaining("unknown role 'staff'") },
      {
        path: '/layout/events/member/2',
        message: expect.stringContaining("unknown section 'reslts' of events (one of heading, upsell-heading"),
      },
      { path: '/layout/events/member/3', message: "'block:nope' names no content block (content-blocks/*.html)" },
      { path: '/layout/checkout', message: "must list 'submit': checkout cannot work without it" },
    ]);
  });
  it('accepts every section of the registry, in any order, and placed blocks', () => {
    const all = Object.fromEntries(Object.entries(SCREEN_SECTIONS).map(([screen, sections]) => [screen, [...sections].reverse()]));
    expect(layoutIssues({ ...all, events: { default: ['block:curator', ...SCREEN_SECTIONS.events] } }, blocks)).toEqual([]);
  });
  it('the config schema lists the same screens and sections as the registry', () => {
    const schema = JSON.parse(readFileSync(path.resolve(__dirname, '../../schemas/seller-config.schema.json'), 'utf8'));
    const description: string = schema.properties.layout.description;
    for (const [screen, sections] of Object.entries(SCREEN_SECTIONS)) {
      expect(description).toContain(screen);
      for (const section of sections) expect(description).toContain(section);
    }
  });
});

describe('donation amounts', () => {
  it('suggests the usual amounts within the range and the seller’s own, smallest first', () => {
    expect(donationPresets({ min: 500, max: 500000, suggested: 2500 })).toEqual([1000, 2500, 5000, 10000]);
    expect(donationPresets({ min: 2000, max: 6000, suggested: 3000 })).toEqual([2500, 3000, 5000]);
    expect(donationPresets({ min: 500, max: 800, suggested: 700 })).toEqual([700]);
  });
  it('reads what a shopper types, and nothing else', () => {
    expect(parseDonation('25')).toBe(2500);
    expect(parseDonation(' $1,000.50 ')).toBe(100050);
    expect(parseDonation('12.5')).toBe(1250);
    expect(parseDonation('')).toBeNull();
    expect(parseDonation('abc')).toBeNull();
    expect(parseDonation('-5')).toBeNull();
    expect(parseDonation('1.234')).toBeNull();
  });
});
