import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/** Seller HTML (content blocks, event descriptions) is sanitised before it is rendered (DESIGN.md section 4). */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}

export function ContentBlock({ name, html }: { name: string; html: string }) {
  return <SafeHtml className={`content-block content-block--${name}`} html={html} />;
}
