import sanitizeHtml from 'sanitize-html';

/**
 * The markup seller HTML may use (event, group and type descriptions, content blocks, terms). Everything
 * else is dropped: script, style, iframe, object, embed, form, svg, math and any other tag; style, id, on*
 * and any other attribute; any URL scheme but http(s), mailto and tel for links and http(s) for images
 * (relative URLs are kept). Text is re-escaped, so the output is only the markup listed here.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'a',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    'b',
    'i',
    'small',
    'img',
    'blockquote',
    'table',
    'caption',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'span',
    'div',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    span: ['class'],
    div: ['class'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  // The content of these is code or foreign markup, never text to show.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'template',
    'svg',
    'math',
    'xmp',
    'noembed',
    'noframes',
    'title',
  ],
  transformTags: {
    // Only target=_blank is kept, and the page it opens gets no handle on the storefront (window.opener) nor its URL.
    a: (tagName, { target, ...attribs }) => ({
      tagName,
      attribs: target === '_blank' ? { ...attribs, target, rel: 'noopener noreferrer' } : attribs,
    }),
  },
};

/** Seller HTML reduced to the markup above; run once when a seller folder is read (DESIGN.md section 4). */
export function sanitizeSellerHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** Shapes and text a seat map may draw behind its seats (catalogue seat_maps[].other_elements); no links, no script. */
const SVG_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['g', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'path', 'text', 'tspan'],
  allowedAttributes: {
    '*': [
      'x',
      'y',
      'dx',
      'dy',
      'width',
      'height',
      'rx',
      'ry',
      'cx',
      'cy',
      'r',
      'x1',
      'y1',
      'x2',
      'y2',
      'points',
      'd',
      'fill',
      'fill-opacity',
      'stroke',
      'stroke-width',
      'stroke-opacity',
      'opacity',
      'transform',
      'font-size',
      'font-weight',
      'font-family',
      'text-anchor',
      'dominant-baseline',
    ],
  },
  allowedSchemes: [],
  nonTextTags: ['script', 'style', 'foreignObject', 'title', 'desc', 'metadata'],
  parser: { xmlMode: true },
};

/** A seat map's SVG fragment reduced to the shapes above; run once when a seller folder is read. */
export function sanitizeSellerSvg(svg: string): string {
  return sanitizeHtml(svg, SVG_OPTIONS).trim();
}
