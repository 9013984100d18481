import { ActionIcon, AppShell, Burger, Group, Kbd, NavLink, Progress, Text, Title, Tooltip, useMantineColorScheme } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { spotlight } from '@mantine/spotlight';
import { IconHelp, IconMoon, IconSun, IconSunMoon } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { NavLink as RouterNavLink, Outlet } from 'react-router';
import { useSaveSettings, useSettings } from '../features/settings/settings.js';
import { consoleTimeZone, pinTimeZone } from '../../../shared/time/zone.js';
import { useAppStatus } from '../features/status/app-status.js';
import { loadRoleRules } from '../features/status/can.js';
import { ENVIRONMENT_LABEL } from '../features/status/environment.js';
import { PartBoundary } from '../ui/ErrorPanel.js';
import { useFirstScreenShown } from '../ui/first-screen.js';
import { LoadingState } from '../ui/states.js';
import classes from './AppLayout.module.css';
import { preloadScreen } from './screen-code.js';
import { useScreenOpening } from './screen-opening.js';
import { SCREENS } from './screens.js';

/**
 * Header, navigation, the routed screen and the status bar. The environment is unmistakable: a
 * coloured bar under the header for production and non-production profiles, and in the window
 * title (which the desktop app shows in its title bar and the task switcher).
 */
const ENVIRONMENT_BAR = {
  prod: { colour: 'var(--mantine-color-red-9)', ink: 'white', text: 'PRODUCTION — actions here change real consumers’ consents' },
  nonprod: { colour: 'var(--mantine-color-yellow-4)', ink: 'black', text: 'Non-production' },
} as const;

/**
 * The parts of the shell the first screen does not need to show its rows: the status bar, the
 * command palette, the first-run name prompt and the notifications. Their code loads, and they
 * render, once the first screen's rows have been painted (ui/first-screen.ts), so neither their
 * scripts nor their first render stand before the first rows (issue 21).
 */
const StatusBar = lazy(() => import('../features/status/StatusBar.js').then((m) => ({ default: m.StatusBar })));
const CommandPalette = lazy(() => import('../features/palette/CommandPalette.js').then((m) => ({ default: m.CommandPalette })));
// The bell loads with the shell's deferred parts: the first screen's reads go first (issue 21's order).
const AlertsBell = lazy(() => import('../features/alerts/AlertsBell.js').then((m) => ({ default: m.AlertsBell })));
const OperatorPrompt = lazy(() => import('../features/operator/OperatorPrompt.js').then((m) => ({ default: m.OperatorPrompt })));
const HelpDialog = lazy(() => import('../features/help/HelpDialog.js').then((m) => ({ default: m.HelpDialog })));
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

function ThemeToggle() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const save = useSaveSettings();
  const next = colorScheme === 'auto' ? 'light' : colorScheme === 'light' ? 'dark' : 'auto';
  const label = { auto: 'Theme: follows the system', light: 'Theme: light', dark: 'Theme: dark' }[colorScheme];
  return (
    <Tooltip label={`${label} — switch to ${next === 'auto' ? 'the system’s' : next}`}>
      <ActionIcon
        variant="subtle"
        aria-label={`${label}. Switch to ${next === 'auto' ? 'follow the system' : next}`}
        onClick={() => {
          setColorScheme(next);
          save.mutate({ theme: next });
        }}
      >
        {colorScheme === 'dark' ? (
          <IconMoon size={18} aria-hidden />
        ) : colorScheme === 'light' ? (
          <IconSun size={18} aria-hidden />
        ) : (
          <IconSunMoon size={18} aria-hidden />
        )}
      </ActionIcon>
    </Tooltip>
  );
}

/** Whether a key press was typed into a field (where `?` is a character, not the help). */
const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/** `?` anywhere but in a field opens the help (keyboard shortcuts and the glossary). */
function useHelpKey(open: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target)) {
        e.preventDefault();
        open();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
}

export function AppLayout() {
  const status = useAppStatus().data;
  const environment = status?.profile.environment;
  const bar = environment === 'prod' || environment === 'nonprod' ? ENVIRONMENT_BAR[environment] : null;
  useEffect(() => {
    if (!status) return;
    const env = ENVIRONMENT_LABEL[status.profile.environment];
    document.title =
      status.profile.environment === 'prod'
        ? `⚠ PRODUCTION — ${status.profile.name} — CDR Console`
        : `${status.profile.name} (${env}) — CDR Console`;
  }, [status]);
  const headerHeight = bar ? 70 : 44;
  const painted = useFirstScreenShown();
  // The role rules once the first rows are there (features/status/can.ts), unless the status has
  // said nobody signs in here (solo), where nothing reads them.
  const solo = status !== undefined && !status.user;
  useEffect(() => {
    if (painted && !solo) void loadRoleRules();
  }, [painted, solo]);
  // A consent's page is where most screens lead (a row, the palette, a webhook failure): its code
  // arrives while the person reads the first screen, not after their click.
  useEffect(() => {
    if (!painted) return;
    const load = () => void preloadScreen('#/consents/_');
    // Safari has no requestIdleCallback.
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(load, 500);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(load, { timeout: 2_000 });
    return () => cancelIdleCallback(idle);
  }, [painted]);
  const opening = useScreenOpening();
  // Ctrl/Cmd+K before the palette's code has arrived opens it as soon as it has (the palette reads
  // whether it is open from its store); once it is there, the palette's own shortcut does the same.
  useHotkeys([['mod+K', () => spotlight.open()]]);
  const [helpOpen, setHelpOpen] = useState(false);
  // Opened once, its code stays: later openings are immediate.
  const [helpShown, setHelpShown] = useState(false);
  const openHelp = useCallback(() => {
    setHelpShown(true);
    setHelpOpen(true);
  }, []);
  useHelpKey(openHelp);
  // The list of screens folds away for a narrow window, remembered per person (settings).
  const settings = useSettings().data;
  const saveSettings = useSaveSettings();
  const [navFolded, setNavFolded] = useState<boolean | undefined>(undefined);
  const collapsed = navFolded ?? settings?.navCollapsed ?? false;
  // The console's time zone: the one the person pinned, else the machine's. Pinned as this renders,
  // before the screen below formats a date; a change shows the screen again, in the new zone.
  pinTimeZone(settings?.timeZone ?? null);
  const zone = consoleTimeZone();
  const toggleNav = () => {
    setNavFolded(!collapsed);
    saveSettings.mutate({ navCollapsed: !collapsed });
  };
  return (
    <AppShell
      header={{ height: headerHeight }}
      navbar={{ width: 200, breakpoint: 0, collapsed: { desktop: collapsed, mobile: collapsed } }}
      footer={{ height: 34 }}
      padding="md"
    >
      <AppShell.Header>
        <Group h={44} px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Tooltip label={collapsed ? 'Show the list of screens' : 'Hide the list of screens'}>
              <Burger
                size="sm"
                opened={!collapsed}
                onClick={toggleNav}
                aria-label={collapsed ? 'Show the list of screens' : 'Hide the list of screens'}
                aria-expanded={!collapsed}
                aria-controls="screens-nav"
              />
            </Tooltip>
            <Title order={1} size="h5">
              CDR Console
            </Title>
            <Text size="xs" c="dimmed">
              Consumer Data Right back office
            </Text>
          </Group>
          <Group gap="xs">
            <Tooltip label="Find a consent by any identifier, a screen or a command">
              <ActionIcon variant="default" w="auto" px={8} onClick={() => spotlight.open()} aria-label="Open the command palette (Ctrl+K)">
                <Text size="xs" c="dimmed">
                  Search <Kbd size="xs">Ctrl</Kbd> <Kbd size="xs">K</Kbd>
                </Text>
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Help: keyboard shortcuts and the glossary (?)">
              <ActionIcon variant="subtle" aria-label="Help: keyboard shortcuts and the glossary (?)" onClick={openHelp}>
                <IconHelp size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Suspense fallback={null}>{painted ? <AlertsBell /> : null}</Suspense>
            <ThemeToggle />
          </Group>
        </Group>
        {bar ? (
          <Group h={26} px="md" bg={bar.colour} role="note" aria-label="Environment" data-testid="environment-bar">
            <Text size="sm" fw={700} c={bar.ink}>
              {bar.text} · profile “{status!.profile.name}”
            </Text>
          </Group>
        ) : null}
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Screens" id="screens-nav">
        {SCREENS.map((s) => (
          <RouterNavLink
            key={s.path}
            to={s.path}
            style={{ textDecoration: 'none' }}
            // The screen's code starts loading under the pointer or the focus, before the click.
            onPointerEnter={() => void preloadScreen(`#${s.path}`)}
            onFocus={() => void preloadScreen(`#${s.path}`)}
          >
            {({ isActive }) => (
              <NavLink component="span" label={s.label} active={isActive} variant="light" aria-current={isActive ? 'page' : undefined} />
            )}
          </RouterNavLink>
        ))}
      </AppShell.Navbar>
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column', height: '100dvh', overflow: 'auto' }}>
        {opening ? (
          <div className={classes.opening} role="status">
            <Progress value={100} animated size="xs" radius={0} aria-label="Opening the screen…" />
          </div>
        ) : null}
        {/* Each screen's code loads when it is first shown (router.tsx); the screen being left is
            inert meanwhile, so a click meant for the next one cannot land on it (screen-opening.ts). */}
        <div className={classes.screen} inert={opening} aria-busy={opening || undefined} data-opening={opening || undefined}>
          <Suspense fallback={<LoadingState label="Opening the screen…" />}>
            <Outlet key={zone} />
          </Suspense>
        </div>
      </AppShell.Main>
      <AppShell.Footer>
        {painted ? (
          <PartBoundary name="The status bar">
            <Suspense fallback={null}>
              <StatusBar />
            </Suspense>
          </PartBoundary>
        ) : null}
      </AppShell.Footer>
      {painted ? (
        <>
          <PartBoundary name="The notifications" floating>
            <Suspense fallback={null}>
              <Notifications position="top-right" limit={4} />
            </Suspense>
          </PartBoundary>
          <PartBoundary name="The name prompt" floating>
            <Suspense fallback={null}>
              <OperatorPrompt />
            </Suspense>
          </PartBoundary>
          {helpShown ? (
            <PartBoundary name="The help" floating>
              <Suspense fallback={null}>
                <HelpDialog opened={helpOpen} onClose={() => setHelpOpen(false)} />
              </Suspense>
            </PartBoundary>
          ) : null}
          <PartBoundary name="The command palette" floating>
            <Suspense fallback={null}>
              <CommandPalette />
            </Suspense>
          </PartBoundary>
        </>
      ) : null}
    </AppShell>
  );
}
