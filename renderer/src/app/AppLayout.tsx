import { AppShell, Group, NavLink, Text, Title } from '@mantine/core';
import { NavLink as RouterNavLink, Outlet } from 'react-router';
import { OperatorPrompt } from '../components/OperatorPrompt.js';
import { StatusBar } from '../components/StatusBar.js';
import { SCREENS } from './screens.js';

/** Header, navigation for every screen, the routed screen, and the status bar. */
export function AppLayout() {
  return (
    <AppShell header={{ height: 44 }} navbar={{ width: 200, breakpoint: 0 }} footer={{ height: 30 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md">
          <Title order={1} size="h5">
            CDR Console
          </Title>
          <Text size="xs" c="dimmed">
            Consumer Data Right back office
          </Text>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Screens">
        <nav>
          {SCREENS.map((s) => (
            <RouterNavLink key={s.path} to={s.path} style={{ textDecoration: 'none' }}>
              {({ isActive }) => (
                <NavLink component="span" label={s.label} active={isActive} variant="light" aria-current={isActive ? 'page' : undefined} />
              )}
            </RouterNavLink>
          ))}
        </nav>
      </AppShell.Navbar>
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column', height: '100dvh' }}>
        <Outlet />
      </AppShell.Main>
      <AppShell.Footer>
        <StatusBar />
      </AppShell.Footer>
      <OperatorPrompt />
    </AppShell>
  );
}
