import { useEffect } from 'react';
import { useStores } from '../stores/context';

/** '{screen title} | {seller name}' in the browser tab. */
export function useDocumentTitle(title: string | null | undefined): void {
  const { config } = useStores();
  const seller = config.seller.name;
  useEffect(() => {
    document.title = title ? `${title} | ${seller}` : seller;
  }, [title, seller]);
}
