/**
 * The only analytics code in the first load: screens and stores report what happened here, and the analytics chunk
 * (src/analytics/start.tsx, loaded after the first paint when the seller turned analytics on) turns the reports into
 * ecommerce events. Reports made before it arrives wait in a short queue; with analytics off they are dropped.
 */
export type TrackReport =
  | { name: 'view_item_list'; events: Array<{ id: string; name: string; category: string }> }
  | { name: 'view_item'; event: { id: string; name: string; category: string } }
  | { name: 'add_to_cart' | 'remove_from_cart'; before: unknown; after: unknown }
  | { name: 'begin_checkout' | 'add_payment_info' | 'purchase'; cart: unknown; orderIds?: string[]; paymentType?: string };

let sink: ((report: TrackReport) => void) | null = null;
let queue: TrackReport[] | null = [];

export function track(report: TrackReport): void {
  if (sink) sink(report);
  else if (queue && queue.length < 100) queue.push(report);
}

/** The analytics chunk takes over: the waiting reports first. */
export function connectTracking(next: (report: TrackReport) => void): void {
  sink = next;
  const waiting = queue ?? [];
  queue = null;
  for (const report of waiting) next(report);
}

/** Analytics off, or the visitor declined: nothing is kept. */
export function dropTracking(): void {
  sink = null;
  queue = null;
}
