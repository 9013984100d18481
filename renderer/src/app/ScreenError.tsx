import { Center } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useRouteError } from 'react-router';
import { ErrorPanel, isChunkLoadError } from '../ui/ErrorPanel.js';
import { SCREENS } from './screens.js';

/** The pages that are not in the navigation, by their route. */
const PAGES: Record<string, string> = {
  '/consents/:consentId': 'The consent’s page',
  '/products/compare': 'The product comparison',
  '/products/:recordId': 'The product’s page',
};

export function screenTitle(path: string): string {
  const screen = SCREENS.find((s) => s.path === path);
  return screen ? `The ${screen.label} screen` : (PAGES[path] ?? 'This screen');
}

/**
 * A screen that failed while drawing (its route's error element): its error panel where the screen
 * was, with the navigation, the status bar and every other screen still working. "Try again" reads
 * its data again and draws it anew (the same address, a new visit: react-router's boundary lets go
 * on a new location); a screen whose code could not be loaded reloads the console, which fetches
 * it again.
 */
export function ScreenError({ path }: { path: string }) {
  const error = useRouteError();
  const navigate = useNavigate();
  const location = useLocation();
  const queries = useQueryClient();
  return (
    <ErrorPanel
      title={`${screenTitle(path)} could not be shown`}
      where={path}
      error={error}
      onRetry={() => {
        if (isChunkLoadError(error)) return window.location.reload();
        // What the failed screen read is read again (its queries are idle while the panel shows):
        // an answer it could not draw is not drawn a second time from the cache.
        queries.removeQueries({ type: 'inactive' });
        void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: { retry: Date.now() } });
      }}
    />
  );
}

/** The shell itself failed (the layout around every screen): the same panel on a page of its own. */
export function ShellError() {
  const error = useRouteError();
  return (
    <Center mih="100dvh" p="md">
      <ErrorPanel
        title="The console could not be shown"
        where="The console’s shell"
        error={error}
        onRetry={() => window.location.reload()}
      />
    </Center>
  );
}
