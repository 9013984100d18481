import { useEffect, useState } from 'react';
import { afterNextPaint } from './after-paint.js';

/**
 * Whether the first screen has shown what it was opened for (a table its first rows, or that it has
 * none), and that frame has been painted. The shell's parts that can wait (the status bar, the
 * command palette, the first-run name prompt, the notifications) load and render then, not while
 * the first rows are read and drawn (issue 21). A screen whose table never says so (or a screen
 * without one) gets them `fallbackMs` after the shell first rendered.
 */
let shown = false;
const waiting = new Set<() => void>();

/** Said by a table the first time it shows rows (or its empty state); later calls do nothing. */
export function markFirstScreenShown(): void {
  if (shown) return;
  shown = true;
  for (const wake of waiting) wake();
  waiting.clear();
}

export function useFirstScreenShown(fallbackMs = 1000): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (done) return;
    let cancelPaint: (() => void) | undefined;
    const afterPaint = () => {
      cancelPaint = afterNextPaint(() => setDone(true));
    };
    const fallback = setTimeout(() => setDone(true), fallbackMs);
    if (shown) afterPaint();
    else waiting.add(afterPaint);
    return () => {
      waiting.delete(afterPaint);
      clearTimeout(fallback);
      cancelPaint?.();
    };
  }, [done, fallbackMs]);
  return done;
}
