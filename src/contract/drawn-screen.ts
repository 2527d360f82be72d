import type { BootData } from './first-reads';

/** A screen the server drew (server rendering, issue 19; src/entry-server.tsx builds it, server/http/index-html.ts
 *  puts it in the page). */
export interface DrawnScreen {
  /** The app's markup, for the page's root element. */
  html: string;
  /** The seller's theme (CSS variables) for the page's root element's style, as the client sets them. */
  theme: Record<string, string>;
  /** The page's title, as the screen sets it in the browser. */
  title: string;
}

/** What the drawing may know of who asks: the page is shared by every visitor alike (the read cache keeps one page per
 *  URL and this), so nothing that names them. */
export interface DrawnVisitor {
  /** The request carried the readable marker of a login session (SESSION_MARKER_COOKIE): someone may be logged in,
   *  and the header waits to know who (SessionStore.awaitingMember) as the browser's first render will. */
  sessionMarked: boolean;
}

/** What the server's renderer (dist-ssr/entry-server.js) exports. */
export interface ServerRenderer {
  /** The screen at `url` drawn from the page's boot data at the server's `now`, or null when it is not drawn. */
  renderScreen(url: string, data: BootData, now?: () => Date, visitor?: DrawnVisitor): Promise<DrawnScreen | null>;
}
