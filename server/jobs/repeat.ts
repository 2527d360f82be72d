/**
 * Runs `round` every `intervalMs` (and once at once with `atStart`); a round still running when the next is due is
 * not overlapped; a failure is logged and the next round runs as usual. Returns the function that stops it.
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
  if (opts.atStart) tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
