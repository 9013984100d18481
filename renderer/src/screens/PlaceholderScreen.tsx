import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ScreenInfo } from '../app/screens.js';

/** A screen that a later issue builds: says what it will hold, so navigation is honest. */
export function PlaceholderScreen({ screen }: { screen: ScreenInfo }) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {screen.label}
      </Title>
      <Paper withBorder p="lg" maw={720}>
        <Text>{screen.purpose}</Text>
        <Text size="sm" c="dimmed" mt="xs">
          Not built yet in this version of the console.
        </Text>
      </Paper>
    </Stack>
  );
}
