import { describe, expect, it } from 'vitest';
import { resolveLayout, SCREEN_SECTIONS } from '../../src/domain/layout';
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
