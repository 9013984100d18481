import { Group, Paper, Text, Title, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A titled part of a screen: a bordered section named for assistive technology (`label`, the
 * title unless told), its title as an h3, what belongs beside the title on the right (`aside`: a
 * button, a badge, when it was made), a dimmed line under the title, then the content. `gap` is
 * the space under the title.
 */
export function Panel({
  title,
  label,
  aside,
  description,
  gap = 'xs',
  children,
}: {
  title: ReactNode;
  label?: string;
  aside?: ReactNode;
  description?: ReactNode;
  gap?: MantineSpacing | number;
  children?: ReactNode;
}) {
  const heading = (spacing?: MantineSpacing | number) => (
    <Title order={3} size="h5" {...(spacing !== undefined ? { mb: spacing } : {})}>
      {title}
    </Title>
  );
  return (
    <Paper withBorder p="sm" component="section" aria-label={label ?? String(title)}>
      {aside !== undefined ? (
        <Group justify="space-between" mb={gap}>
          {heading()}
          {aside}
        </Group>
      ) : (
        heading(description !== undefined ? 4 : gap)
      )}
      {description !== undefined ? (
        <Text size="xs" c="dimmed" mb="xs">
          {description}
        </Text>
      ) : null}
      {children}
    </Paper>
  );
}
