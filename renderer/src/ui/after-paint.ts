import { useEffect, useState } from 'react';

/**
 * Runs `run` once the next frame has been painted, and returns what cancels it. The animation
 * frame's callback runs before its paint; a task queued from it runs after.
 */
export function afterNextPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/**
 * False until the frame after the component first showed has been painted, then true: for a part
 * of a screen that can wait for the rest to be seen (a long table below a chart). React's deferred
 * renders still commit before that frame when they are quick enough to start, and a commit of a
 * thousand table rows held the frame that showed the chart (issue 21).
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterNextPaint(() => setPainted(true)), []);
  return painted;
}
