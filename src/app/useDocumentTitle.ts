import { useEffect } from 'react';
import { useStores } from '../stores/context';

/** '{screen title} | {seller name}', or the seller's name alone. */
export function documentTitle(title: string | null | undefined, seller: string): string {
  return title ? `${title} | ${seller}` : seller;
}

/** The screen's title in the browser tab (documentTitle). */
export function useDocumentTitle(title: string | null | undefined): void {
  const { config } = useStores();
  const seller = config.seller.name;
  useEffect(() => {
    document.title = documentTitle(title, seller);
  }, [title, seller]);
}
