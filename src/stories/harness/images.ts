import { DEMO } from './demo';

/**
 * The seller's images and the QR codes in a story. The storefront draws them from the API by id (the media route
 * `{apiBaseUrl}/image/{id}`, an order's `{cachedApiBaseUrl}/ticket_order/{id}/qrcode`, a membership's QR), but the
 * recording's ids are those of the recording's own database: the server that serves the viewer at /_stories/ loaded
 * the demo seller under other ids and answers the recorded ones 404 (and Ladle's dev server has no API at all). So
 * the story's page draws each recorded one from its recorded bytes (DEMO.media, data: addresses the page's CSP
 * allows): an <img> or <source> naming a recorded address gets its data: address instead (drawRecordedImages).
 */
const API_ADDRESS = /\/(?:api|cached_api)\/([^?#\s,]+)(?:\?[^\s,]*)?/g;

/** `value` (a src or srcset) with every recorded address replaced by its bytes. */
export function recordedImages(value: string): string {
  return value.replace(API_ADDRESS, (address, path: string) => DEMO.media[decodeURIComponent(path)] ?? address);
}

function rewrite(element: Element): void {
  for (const name of ['src', 'srcset']) {
    const value = element.getAttribute(name);
    if (!value || value.startsWith('data:')) continue;
    const next = recordedImages(value);
    if (next !== value) element.setAttribute(name, next);
  }
}

function rewriteTree(root: Element): void {
  if (root.matches('img, source')) rewrite(root);
  for (const element of root.querySelectorAll('img, source')) rewrite(element);
}

const PATCHED = Symbol.for('storefront-stories.recorded-images');

/**
 * Draws the recorded images in `doc` (the story's page: Ladle's iframe when a width is set) from now on. React sets
 * an image's address as it creates the element (the `src` property, or setAttribute) and the browser asks for it at
 * once, before any observer could step in: on the story's page an <img>/<source> given a recorded address gets the
 * recorded bytes in its place, so the API is never asked for an id it does not have. Images already there are
 * redrawn. Nothing to undo: every story of the page draws from the same recording.
 */
export function drawRecordedImages(doc: Document): void {
  const view = doc.defaultView as (Window & typeof globalThis) | null;
  if (!view) return;
  const element = view.Element.prototype as Element & { [PATCHED]?: true };
  if (!element[PATCHED]) {
    element[PATCHED] = true;
    const setAttribute = element.setAttribute;
    element.setAttribute = function (this: Element, name: string, value: string) {
      // (React names it 'srcSet'; HTML's attribute names are case-insensitive.)
      const attribute = name.toLowerCase();
      const media = (attribute === 'src' || attribute === 'srcset') && (this.localName === 'img' || this.localName === 'source');
      setAttribute.call(this, name, media ? recordedImages(String(value)) : value);
    };
    for (const proto of [view.HTMLImageElement.prototype, view.HTMLSourceElement.prototype]) {
      for (const name of ['src', 'srcset']) {
        const property = Object.getOwnPropertyDescriptor(proto, name);
        if (!property?.set) continue;
        const set = property.set;
        Object.defineProperty(proto, name, {
          ...property,
          set(this: HTMLElement, value: unknown) {
            set.call(this, recordedImages(String(value)));
          },
        });
      }
    }
  }
  rewriteTree(doc.documentElement);
}
