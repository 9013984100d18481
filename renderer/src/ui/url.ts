import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * What a screen shows lives in the URL (the hash route's query), so a link, a reload or Back brings
 * the same view back. These are the few ways the screens read and change it.
 */
export type ParamChange = Record<string, string | null | undefined>;

/** A copy of the query with some keys changed: a value sets its key, an empty or missing one removes it. */
export function withParams(params: URLSearchParams, change: ParamChange): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(change)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}

/**
 * The query, and a setter of some of its keys (as withParams). A change is a new history entry, so
 * Back undoes it; `replace` for one that should not be (a search, as it is typed).
 */
export function useQueryParams(): [URLSearchParams, (change: ParamChange, opts?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (change: ParamChange, opts?: { replace?: boolean }) =>
      setParams((prev) => withParams(prev, change), { replace: opts?.replace ?? false }),
    [setParams],
  );
  return [params, update];
}

/**
 * A whole view read from the query and written back to it: `read` turns the query into the view,
 * `write` the view into a query. The setter merges a partial change into the view as it is in the
 * URL at that moment (a new history entry unless `replace`).
 */
export function useUrlView<View>(
  read: (params: URLSearchParams) => View,
  write: (view: View) => URLSearchParams,
): [View, (change: Partial<View>, opts?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the query string is the identity of the view
  const view = useMemo(() => read(params), [key, read]);
  const update = useCallback(
    (change: Partial<View>, opts?: { replace?: boolean }) =>
      setParams((prev) => write({ ...read(prev), ...change }), { replace: opts?.replace ?? false }),
    [setParams, read, write],
  );
  return [view, update];
}
