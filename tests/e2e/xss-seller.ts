/**
 * 'e2e-xss': a copy of the demo seller whose seller HTML carries script payloads (issue 5), loaded by
 * tests/e2e/setup-sellers.ts and checked in the browser by tests/e2e/xss.spec.ts and on the server by
 * tests/unit/sanitize.test.ts. Every payload sets window.__xss (or opens a dialog) if it ever runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const XSS_SELLER = { slug: 'e2e-xss', name: 'E2E XSS Museum' };

export const XSS_PAYLOADS = [
  '<script>window.__xss=1</script>',
  '<img src="x" onerror="window.__xss=1">',
  '<a href="javascript:window.__xss=1">a javascript link</a>',
  '<a href="JaVaScRiPt:window.__xss=1">a mixed-case link</a>',
  '<a href="&#106;&#97;vascript&#58;window.__xss=1">an entity-encoded link</a>',
  '<a href="java&#x09;script:window.__xss=1">a tab-split link</a>',
  '<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">a data link</a>',
  '<svg onload="window.__xss=1"><circle r="5"></circle></svg>',
  '<iframe src="javascript:window.__xss=1"></iframe><iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
  '<style>body { display: none }</style>',
  '<form action="javascript:window.__xss=1"><button formaction="javascript:window.__xss=1">Go</button></form>',
  '<details open ontoggle="window.__xss=1"><summary>s</summary></details>',
  '<input autofocus onfocus="window.__xss=1">',
  '<object data="javascript:window.__xss=1"></object><embed src="javascript:window.__xss=1">',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=1"></style></mglyph></table></mtext></math>',
  '<svg><p><style><img src=x onerror="window.__xss=1"></style></p></svg>',
  '<noscript><p title="</noscript><img src=x onerror=window.__xss=1>"></p></noscript>',
  '<p style="background:url(javascript:window.__xss=1)" onmouseover="window.__xss=1">hover</p>',
];

/** Harmless text around the payloads: it must still be shown (a page showing nothing would pass otherwise). */
export const XSS_SAFE_TEXT = {
  description: 'Timed entry to every permanent gallery.',
  eventsBlock: 'Welcome to the payload museum.',
  detailBlock: 'Bring a friend on Sundays.',
  terms: 'Tickets are valid for the date shown.',
} as const;

/** A link that must survive, opened in a new tab without a handle on the storefront. */
export const XSS_SAFE_LINK = { href: 'https://example.com/visit', text: 'Plan your trip' };

const payloads = XSS_PAYLOADS.join('\n');
const block = (name: string, routes: string, text: string) =>
  `---\nname: ${name}\nslot: top\nroutes: ${routes}\norder: -1\n---\n<h2>${text}</h2>\n${payloads}\n<p>${text}</p>\n`;

/** Turns a copy of the demo folder (in `dir`, its config.json already parsed into `config`) into 'e2e-xss'. */
export function applyXssPayloads(config: Record<string, unknown>, dir: string): void {
  config.slug = XSS_SELLER.slug;
  config.name = XSS_SELLER.name;
  config.terms_html = `<p>${XSS_SAFE_TEXT.terms}</p>${payloads}`;

  const file = path.join(dir, 'catalog.json');
  const catalog = JSON.parse(readFileSync(file, 'utf8'));
  const admission = catalog.events.find((e: { key: string }) => e.key === config.admission_event_id);
  const link = `<a href="${XSS_SAFE_LINK.href}" target="_blank">${XSS_SAFE_LINK.text}</a>`;
  admission.description = `<p>${XSS_SAFE_TEXT.description} ${link}</p>${payloads}`;
  for (const group of admission.ticket_groups) {
    group.description = payloads;
    for (const type of group.types) type.description = payloads;
  }
  writeFileSync(file, JSON.stringify(catalog, null, 2));

  const blocks = path.join(dir, 'content-blocks');
  mkdirSync(blocks, { recursive: true });
  writeFileSync(path.join(blocks, 'xss-events.html'), block('xss-events', 'events', XSS_SAFE_TEXT.eventsBlock));
  writeFileSync(path.join(blocks, 'xss-detail.html'), block('xss-detail', 'event-detail', XSS_SAFE_TEXT.detailBlock));
}
