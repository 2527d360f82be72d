// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lazyMarkdown, LAZY_MARKDOWN } from '../../vite.config';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("@rjsf's markdown, loaded when drawn (src/forms/lazy-markdown.tsx)", () => {
  let host: HTMLElement;
  let root: Root;
  beforeEach(() => {
    vi.resetModules();
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
    vi.doUnmock('markdown-to-jsx/react');
  });

  const draw = async (text: string) => {
    const { Markdown } = await import('../../src/forms/lazy-markdown');
    await act(async () => root.render(<Markdown options={{ disableParsingRawHTML: true }}>{text}</Markdown>));
  };

  it('draws the text as markdown once the library is here, and the text as written before', async () => {
    const { Markdown } = await import('../../src/forms/lazy-markdown');
    act(() => root.render(<Markdown options={{ disableParsingRawHTML: true }}>{'Bring **photo ID**'}</Markdown>));
    // the first paint, before the library arrived: the text, unformatted
    expect(host.textContent).toBe('Bring **photo ID**');
    expect(host.querySelector('strong')).toBeNull();
    await act(async () => {
      await vi.dynamicImportSettled();
    });
    await vi.waitFor(() => expect(host.querySelector('strong')?.textContent).toBe('photo ID'));
    expect(host.textContent).toBe('Bring photo ID');
  });

  it('keeps raw HTML out, as @rjsf asks', async () => {
    await draw('<img src=x onerror=alert(1)> *hi*');
    await vi.waitFor(() => expect(host.querySelector('em')?.textContent).toBe('hi'));
    expect(host.querySelector('img')).toBeNull();
  });

  it('shows the text as written when the library cannot be downloaded', async () => {
    vi.doMock('markdown-to-jsx/react', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    await draw('Bring **photo ID**');
    await act(async () => {
      await vi.dynamicImportSettled();
    });
    expect(host.textContent).toBe('Bring **photo ID**');
    expect(host.querySelector('strong')).toBeNull();
  });
});

describe('lazyMarkdown() in the build', () => {
  const plugin = lazyMarkdown();
  (plugin.configResolved as (c: { root: string }) => void)({ root: '/app' });
  const resolve = (source: string, importer?: string) => (plugin.resolveId as (s: string, i?: string) => string | null)(source, importer);
  const shim = `/app/${LAZY_MARKDOWN}`;

  it("sends @rjsf's imports of markdown-to-jsx to the lazy module, and no one else's", () => {
    expect(resolve('markdown-to-jsx/react', '/app/node_modules/@rjsf/core/lib/components/RichDescription.js')).toBe(shim);
    expect(resolve('markdown-to-jsx/react', shim)).toBeNull();
    expect(resolve('markdown-to-jsx/react', '/app/node_modules/other/index.js')).toBeNull();
    expect(resolve('markdown-to-jsx', '/app/node_modules/@rjsf/core/lib/index.js')).toBeNull();
  });
});
