/**
 * How long after a start the `atStart` rounds wait: the first pages after a start are then not queued behind the
 * jobs' first reads on PGlite's one session (they added 65-75 ms to the first page here). None of them is urgent to
 * the second: payments cut off by a crash, memberships due for renewal, mail waiting to go.
 */
export const AT_START_DELAY_MS = 2000;

/**
 * Runs `round` every `intervalMs` (and once soon after the start with `atStart`: after AT_START_DELAY_MS, or
 * `intervalMs` if that is sooner); a round still running when the next is due is not overlapped; a failure is logged
 * and the next round runs as usual. Returns the function that stops it.
 */
export function repeat(name: string, intervalMs: number, round: () => Promise<unknown>, opts: { atStart?: boolean } = {}): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    round()
      .catch((err) => console.error(`${name} failed`, err))
      .finally(() => {
        running = false;
      });
  };
  const first = opts.atStart && AT_START_DELAY_MS < intervalMs ? setTimeout(tick, AT_START_DELAY_MS) : undefined;
  first?.unref();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
