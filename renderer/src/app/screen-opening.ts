import { useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';

/**
 * Whether the router has moved to another screen that React does not show yet. The router draws a
 * navigation in a transition: while the next screen's code loads, React keeps the screen being left
 * on display, live, and a click on it then (a button in the same place, such as the list's "Bulk
 * revoke…" under the detail's "Revoke…") acted on a screen about to vanish, a dialog opened and lost
 * with it (issue 39). The shell makes that screen inert and says the next one is opening
 * (AppLayout). Only the path counts: a change of a screen's own query (typing in its search box)
 * is no navigation away, and must not take the focus from the box.
 */
interface Watched {
  state: { location: { pathname: string } };
  subscribe(listener: (state: { location: { pathname: string } }) => void): () => void;
}
let router: Watched | null = null;

/** Called once with the app's router (router.tsx). */
export function watchNavigations(r: Watched): void {
  router = r;
}

const subscribe = (listener: () => void) => router?.subscribe(listener) ?? (() => {});

export function useScreenOpening(): boolean {
  const shown = useLocation().pathname;
  // The router's own location, read as it changes (an urgent update, outside the router's
  // transition), so the screen being left redraws at once; and read at every render, so a
  // navigation made before this subscribed (the index route's redirect) is not missed.
  const latest = useSyncExternalStore(subscribe, () => router?.state.location.pathname ?? shown);
  return latest !== shown;
}
