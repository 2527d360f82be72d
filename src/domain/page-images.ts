import { imageUrl } from '../contract/urls';

/** The header logo's box in CSS pixels (app.css .brand__logo); the image API is asked for twice that, for sharp
 *  screens. */
export const LOGO = { width: 192, height: 48 } as const;

/** The header logo's address, written once for the header and for the page's preload hint. */
export const logoSrc = (apiBaseUrl: string, imageId: string) =>
  imageUrl(apiBaseUrl, imageId, { width: LOGO.width * 2, height: LOGO.height * 2 });

/** Spec section 9: cover images are requested 1500 wide; small screens take the half-size one (srcset). The box
 *  is 4:3 (app.css .event-detail__image), so the attributes give that shape before the image arrives. */
export const COVER = { width: 1500, height: 1125 } as const;
/** The cover's displayed width: the page less its padding on small screens, the main column (at most 50rem) beside
 *  the cart otherwise. */
export const COVER_SIZES = '(max-width: 48rem) calc(100vw - 2rem), 50rem';

interface CoverMeta {
  image_cover?: string | null;
  image_profile?: string | null;
}

/** The event's cover: its cover image, else its profile image, else none. */
export function coverImageId(meta: CoverMeta | null | undefined): string | null {
  return meta?.image_cover ?? meta?.image_profile ?? null;
}

/** The cover's src and srcset, written once for the event detail and for the page's preload hint (the two must
 *  be the same addresses, or the phone downloads the image twice). */
export function coverSources(apiBaseUrl: string, imageId: string): { src: string; srcSet: string } {
  return {
    src: imageUrl(apiBaseUrl, imageId, { width: COVER.width }),
    srcSet: [COVER.width / 2, COVER.width].map((w) => `${imageUrl(apiBaseUrl, imageId, { width: w })} ${w}w`).join(', '),
  };
}
