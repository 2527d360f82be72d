import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JSDOM, VirtualConsole } from 'jsdom';
import { afterAll, describe, expect, it } from 'vitest';
import { parseContentBlock } from '../../server/catalog/front-matter';
import { readSellerFolder } from '../../server/catalog/read';
import { sanitizeSellerHtml, sanitizeSellerSvg } from '../../server/catalog/sanitize';
import { applyXssPayloads, XSS_PAYLOADS, XSS_SAFE_LINK, XSS_SAFE_TEXT } from '../e2e/xss-seller';

const DEMO_DIR = path.resolve('sellers/demo');
const HTML_NS = 'http://www.w3.org/1999/xhtml';
const SVG_NS = 'http://www.w3.org/2000/svg';

/** A document parsed by jsdom (the HTML spec's parser, as a browser's), quiet about the payloads' CSS. */
const parse = (html: string) => new JSDOM(html, { virtualConsole: new VirtualConsole() }).window.document;

/** What may be left in seller HTML: tag -> attributes (the allowlist of server/catalog/sanitize.ts, restated). */
const HTML_ALLOWED: Record<string, string[]> = {
  ...Object.fromEntries(
    [
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'p',
      'br',
      'hr',
      'ul',
      'ol',
      'li',
      'strong',
      'em',
      'b',
      'i',
      'small',
      'blockquote',
      'table',
      'caption',
      'thead',
      'tbody',
      'tfoot',
      'tr',
    ].map((tag) => [tag, []]),
  ),
  a: ['href', 'title', 'target', 'rel'],
  img: ['src', 'alt', 'width', 'height'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  span: ['class'],
  div: ['class'],
};
const LINK_SCHEMES = ['http:', 'https:', 'mailto:', 'tel:'];
const IMAGE_SCHEMES = ['http:', 'https:'];

/** Parses the HTML inside a <div>, as the storefront renders it, and lists what the allowlist does not allow. */
function htmlProblems(html: string): string[] {
  const root = parse('<!doctype html><div></div>').querySelector('div')!;
  root.innerHTML = html;
  const problems: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    const allowed = el.namespaceURI === HTML_NS ? HTML_ALLOWED[el.localName] : undefined;
    if (!allowed) {
      problems.push(`<${el.localName}> (${el.namespaceURI})`);
      continue;
    }
    for (const attr of el.attributes) {
      if (!allowed.includes(attr.name)) problems.push(`<${el.localName} ${attr.name}>`);
      else if (attr.name === 'href' || attr.name === 'src') {
        const scheme = new URL(attr.value, 'https://shop.example/').protocol;
        if (!(el.localName === 'img' ? IMAGE_SCHEMES : LINK_SCHEMES).includes(scheme))
          problems.push(`<${el.localName} ${attr.name}=${scheme}>`);
      }
    }
    if (el.getAttribute('target') === '_blank' && el.getAttribute('rel') !== 'noopener noreferrer')
      problems.push('target=_blank without rel');
  }
  return problems;
}

const SVG_ALLOWED = ['g', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'path', 'text', 'tspan'];

/** The seat map fragment parsed inside an <svg>, as a seat map would draw it; lists elements and attributes that are not shapes. */
function svgProblems(svg: string): string[] {
  const root = parse('<!doctype html><svg></svg>').querySelector('svg')!;
  root.innerHTML = svg;
  const problems: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    if (el.namespaceURI !== SVG_NS || !SVG_ALLOWED.includes(el.localName)) problems.push(`<${el.localName}>`);
    for (const attr of el.attributes) {
      if (/^on|href$|^style$/i.test(attr.name)) problems.push(`<${el.localName} ${attr.name}>`);
    }
  }
  return problems;
}

/** Classics beyond the browser test's payloads (tests/e2e/xss-seller.ts). */
const MORE_PAYLOADS = [
  '<a href="&#x6A;avascript&colon;window.__xss=1">x</a>',
  '<a href="javascript&#58;window.__xss=1">x</a>',
  '<a href="jav&#x0A;ascript:window.__xss=1">x</a>',
  '<a href="  javascript:window.__xss=1">x</a>',
  '<a href="vbscript:window.__xss=1">x</a>',
  '<img src="data:image/svg+xml,&lt;svg onload=window.__xss=1&gt;">',
  '<img src="javascript:window.__xss=1">',
  '<base href="javascript:window.__xss=1//"><link rel="stylesheet" href="javascript:window.__xss=1">',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">',
  '<textarea><img src=x onerror="window.__xss=1"></textarea>',
  '<<script>script>window.__xss=1<</script>/script>',
  '<!-- --!><img src=x onerror="window.__xss=1"> -->',
  '<xmp><img src=x onerror="window.__xss=1"></xmp>',
  '<template><img src=x onerror="window.__xss=1"></template>',
  '<video><source onerror="window.__xss=1"></video><body onload="window.__xss=1">',
  '<div id="x" style="x:expression(window.__xss=1)" onclick="window.__xss=1" data-x="1">d</div>',
  '<svg><a href="javascript:window.__xss=1"><text>t</text></a><animate attributeName="href" to="javascript:window.__xss=1"/></svg>',
  '<math><maction actiontype="statusline" xlink:href="javascript:window.__xss=1">m</maction></math>',
];

describe('sanitizeSellerHtml', () => {
  it.each([...XSS_PAYLOADS, ...MORE_PAYLOADS])('leaves nothing executable of %s', (payload) => {
    // The check itself can fail: the raw payload is caught by it.
    expect(htmlProblems(payload)).not.toEqual([]);
    const clean = sanitizeSellerHtml(payload);
    expect(htmlProblems(clean)).toEqual([]);
    expect(clean).not.toContain('__xss');
    // Stable: a second pass changes nothing, so what the browser parses is what was checked.
    expect(sanitizeSellerHtml(clean)).toBe(clean);
  });

  it('keeps the markup seller content uses', () => {
    const markup = [
      '<h1>Title</h1><h2>A</h2><h3>B</h3><h4>C</h4><h5>D</h5><h6>E</h6>',
      '<p>Fish &amp; chips &lt;b&gt; – “quoted”<br />next line</p><hr />',
      '<p><strong>strong</strong> <em>em</em> <b>b</b> <i>i</i> <small>small</small></p>',
      '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote>',
      '<p><a href="https://example.com/a?b=1&amp;c=2" title="T">abs</a> <a href="/membership">rel</a> ',
      '<a href="mailto:visit@example.com">mail</a> <a href="tel:+12125550100">tel</a> <a href="#hours">anchor</a></p>',
      '<img src="/api/images/x.png" alt="A hall" width="320" height="200" /><img src="https://cdn.example.com/y.jpg" alt="" />',
      '<table><caption>Hours</caption><thead><tr><th scope="col" colspan="2">Day</th></tr></thead>',
      '<tbody><tr><td rowspan="2">Mon</td><td>9–5</td></tr></tbody><tfoot><tr><td>x</td></tr></tfoot></table>',
      '<div class="note"><span class="price">$5</span></div>',
    ].join('');
    expect(sanitizeSellerHtml(markup)).toBe(markup);
    expect(htmlProblems(markup)).toEqual([]);
  });

  it('drops attributes outside the allowlist and makes target=_blank links noopener noreferrer', () => {
    expect(sanitizeSellerHtml('<p class="x" id="y" style="color:red">t</p>')).toBe('<p>t</p>');
    expect(sanitizeSellerHtml('<a href="https://example.com" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://example.com" rel="noopener noreferrer" target="_blank">x</a>',
    );
    expect(sanitizeSellerHtml('<a href="/x" target="_top">x</a>')).toBe('<a href="/x">x</a>');
    expect(sanitizeSellerHtml('<img src="data:image/png;base64,AAAA" alt="a">')).toBe('<img alt="a" />');
    expect(sanitizeSellerHtml('  <p>padded</p>\n')).toBe('<p>padded</p>');
  });
});

describe('sanitizeSellerSvg (seat map other_elements)', () => {
  it.each([
    '<script>window.__xss=1</script><rect width="1" height="1"/>',
    '<g onclick="window.__xss=1"><circle r="2"/></g>',
    '<a href="javascript:window.__xss=1"><text>t</text></a>',
    '<foreignObject><img src=x onerror="window.__xss=1"></foreignObject>',
    '<animate attributeName="href" to="javascript:window.__xss=1"/><set attributeName="onmouseover" to="window.__xss=1"/>',
    '<image href="javascript:window.__xss=1"/><use href="data:image/svg+xml,x"/><style>*{display:none}</style>',
    '<rect style="fill:url(javascript:window.__xss=1)" width="1"/>',
  ])('leaves only shapes of %s', (payload) => {
    expect(svgProblems(payload)).not.toEqual([]);
    const clean = sanitizeSellerSvg(payload);
    expect(svgProblems(clean)).toEqual([]);
    expect(clean).not.toContain('__xss');
  });
});

/** Each HTML field of a catalogue, as [label, html]. */
function catalogHtml(catalog: { events: any[]; seat_maps?: any[] }): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const e of catalog.events) {
    if (e.description !== undefined) out.push([`event ${e.key}`, e.description]);
    for (const g of e.ticket_groups) {
      if (g.description !== undefined) out.push([`group ${e.key}/${g.key}`, g.description]);
      for (const t of g.types) if (t.description !== undefined) out.push([`type ${e.key}/${g.key}/${t.key}`, t.description]);
    }
  }
  return out;
}

describe('readSellerFolder sanitises every HTML field once', () => {
  const temp: string[] = [];
  afterAll(() => temp.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('leaves the demo seller as it is written', () => {
    const folder = readSellerFolder(DEMO_DIR);
    const catalog = JSON.parse(readFileSync(path.join(DEMO_DIR, 'catalog.json'), 'utf8'));
    const config = JSON.parse(readFileSync(path.join(DEMO_DIR, 'config.json'), 'utf8'));
    expect(catalogHtml(catalog).length).toBeGreaterThan(0);
    expect(catalogHtml(folder.catalog)).toEqual(catalogHtml(catalog));
    expect(folder.config.terms_html).toBe(config.terms_html);

    const blocksDir = path.join(DEMO_DIR, 'content-blocks');
    const own = readdirSync(blocksDir).map((name) => parseContentBlock(readFileSync(path.join(blocksDir, name), 'utf8'), name).block!);
    for (const block of own) expect(folder.contentBlocks.find((b) => b.name === block.name)?.html).toBe(block.html);

    // The seat map SVG draws the same: parsed in an <svg>, the sanitised fragment serialises like the original.
    const drawn = (svg: string) => {
      const root = parse('<!doctype html><svg></svg>').querySelector('svg')!;
      root.innerHTML = svg;
      return root.innerHTML;
    };
    expect(folder.catalog.seat_maps!.length).toBeGreaterThan(0);
    folder.catalog.seat_maps!.forEach((map, i) => expect(drawn(map.other_elements!)).toBe(drawn(catalog.seat_maps[i].other_elements)));
  });

  it('cleans the payloads of the e2e-xss copy in descriptions, terms and content blocks, keeping their text', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'seller-xss-'));
    temp.push(dir);
    cpSync(DEMO_DIR, dir, { recursive: true });
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
    applyXssPayloads(config, dir);
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));

    const folder = readSellerFolder(dir);
    const fields: Array<[string, string]> = [
      ...catalogHtml(folder.catalog),
      ['terms', folder.config.terms_html],
      ...folder.contentBlocks.map((b): [string, string] => [`block ${b.name}`, b.html]),
    ];
    expect(fields.filter(([, html]) => html.includes('window.__xss')).length).toBe(0);
    for (const [label, html] of fields) expect({ label, problems: htmlProblems(html) }).toEqual({ label, problems: [] });

    const admission = folder.catalog.events.find((e) => e.key === config.admission_event_id)!;
    expect(admission.description).toContain(XSS_SAFE_TEXT.description);
    expect(admission.description).toContain(
      `<a href="${XSS_SAFE_LINK.href}" target="_blank" rel="noopener noreferrer">${XSS_SAFE_LINK.text}</a>`,
    );
    expect(folder.config.terms_html).toContain(`<p>${XSS_SAFE_TEXT.terms}</p>`);
    expect(folder.contentBlocks.find((b) => b.name === 'xss-events')?.html).toContain(`<p>${XSS_SAFE_TEXT.eventsBlock}</p>`);
    expect(folder.contentBlocks.find((b) => b.name === 'xss-detail')?.html).toContain(`<p>${XSS_SAFE_TEXT.detailBlock}</p>`);
  });
});
