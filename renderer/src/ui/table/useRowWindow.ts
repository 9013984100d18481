import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Which rows of a long list of rows of one height are on screen, from the scroll element's offset
 * and height: the rows drawn (with `overscan` more each way), the space above and below them, and
 * scrolling a row into view. The rows' height is fixed, so a new row count (each keystroke of a
 * search) costs nothing: a general virtualiser (TanStack Virtual) lays out every row of the count
 * again, 100,000 at a time.
 */
export function useRowWindow(opts: {
  scrollRef: RefObject<HTMLElement | null>;
  /** The header above the rows inside the scroll element (sticky): rows scrolled to stay below it. */
  headRef?: RefObject<HTMLElement | null>;
  count: number;
  rowHeight: number;
  overscan: number;
  /** The viewport's height until it is measured, or where it cannot be (component tests): a window's worth. */
  initialHeight?: number;
}) {
  const { scrollRef, headRef, count, rowHeight, overscan } = opts;
  const [viewport, setViewport] = useState({ top: 0, height: opts.initialHeight ?? 800 });
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const update = () =>
      setViewport((v) => {
        // An element that cannot be measured (0 high) keeps the window's worth.
        const height = el.clientHeight || v.height;
        return v.top === el.scrollTop && v.height === height ? v : { top: el.scrollTop, height };
      });
    update();
    el.addEventListener('scroll', update, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      resize?.disconnect();
    };
  }, [scrollRef]);

  const firstVisible = Math.floor(viewport.top / rowHeight);
  const lastVisible = Math.ceil((viewport.top + viewport.height) / rowHeight);
  const first = Math.max(0, Math.min(firstVisible - overscan, count - 1));
  const last = Math.min(count - 1, lastVisible + overscan);
  const indexes: number[] = [];
  for (let i = first; i <= last; i++) indexes.push(i);
  return {
    /** The rows to draw, in order (none when the list is empty). */
    indexes,
    padTop: indexes.length ? first * rowHeight : 0,
    padBottom: indexes.length ? (count - 1 - last) * rowHeight : 0,
    /** Scrolls as little as shows the row whole, below the header. */
    scrollToIndex(index: number) {
      const el = scrollRef.current;
      if (!el) return;
      const head = headRef?.current?.offsetHeight ?? 0;
      const start = index * rowHeight;
      const end = start + rowHeight;
      if (start < el.scrollTop) el.scrollTop = start;
      else if (head + end > el.scrollTop + el.clientHeight) el.scrollTop = head + end - el.clientHeight;
    },
  };
}
