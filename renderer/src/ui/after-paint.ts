import { useEffect, useState } from 'react';

/**
 * False until the frame after the component first showed has been painted, then true: for a part
 * of a screen that can wait for the rest to be seen (a long table below a chart). React's deferred
 * renders still commit before that frame when they are quick enough to start, and a commit of a
 * thousand table rows held the frame that showed the chart (issue 21).
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The animation frame's callback runs before its paint; a task queued from it runs after.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return painted;
}
