/**
 * Where the browser keeps a seller's upsell chain and its visit window (spec section 3's client state). A module of its
 * own: the router asks whether a chain is stored on the first page, without the chain's rules (upsell.ts).
 */
export const upsellStorageKeys = (sellerId: string) =>
  [`storefront.upsellsChain.${sellerId}`, `storefront.visitWindow.${sellerId}`] as const;
