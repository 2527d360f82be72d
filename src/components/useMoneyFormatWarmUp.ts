import { useEffect } from 'react';
import { formatMoney } from '../domain/pricing';

/**
 * The first money format of a page makes the browser load its number-formatting data (tens of milliseconds on a
 * phone). Screens that show prices once their data arrives call this on mount: that cost is then paid in a task
 * of its own while the data is on its way, not inside the render that draws the prices.
 */
export function useMoneyFormatWarmUp(currency: string): void {
  useEffect(() => {
    const timer = setTimeout(() => formatMoney(0, currency), 0);
    return () => clearTimeout(timer);
  }, [currency]);
}
