/**
 * Runs `fn` once the browser has painted the next frame (a task queued from that frame's animation callback runs
 * after its paint), so work started from an effect does not hold up what the render just drew. Returns a cancel.
 */
export function afterNextPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}
