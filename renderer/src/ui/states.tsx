import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** Loading, empty and error states that say what is happening and what to do next. */
export function LoadingState({ label }: { label: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader size="sm" aria-hidden />
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <Center py="xl">
      <Stack align="center" gap={6} maw={520} ta="center">
        <Text fw={600}>{title}</Text>
        {children ? (
          <Text size="sm" c="dimmed">
            {children}
          </Text>
        ) : null}
        {action}
      </Stack>
    </Center>
  );
}

export function ErrorState({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm">{error instanceof Error ? error.message : String(error)}</Text>
      {onRetry ? (
        <Button size="xs" variant="default" mt="xs" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </Alert>
  );
}
