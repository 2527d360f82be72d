/**
 * Seller HTML (content blocks, descriptions, terms) as the API serves it: the server sanitised it once when the
 * seller folder was loaded (server/catalog/sanitize.ts), and the Content-Security-Policy refuses inline script
 * as a second layer, so the browser renders it as it is.
 */
export function SafeHtml({ html, className }: { html: string; className?: string }) {
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** `held`: the block keeps its place unseen (not read out, not focusable) until the page knows it is for this visitor. */
export function ContentBlock({ name, html, held = false }: { name: string; html: string; held?: boolean }) {
  return <SafeHtml className={`content-block content-block--${name}${held ? ' content-block--held' : ''}`} html={html} />;
}
