import { Anchor, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * The top of a screen: a way back (a detail screen's "← Products"), the title, the line under it
 * (dimmed) and any further lines, and the screen's actions on the right, top-aligned with the title.
 * The title block and the actions share the row; with `wrap`, the actions go under the title on a
 * narrow window instead (screens whose line under the title is long prose).
 */
export function ScreenHeader({
  title,
  description,
  descriptionProps,
  children,
  actions,
  back,
  wrap = false,
}: {
  title: ReactNode;
  /** The dimmed line under the title. */
  description?: ReactNode;
  /** On the description's element: a test id, aria-live for a count that changes with the view. */
  descriptionProps?: { 'data-testid'?: string; 'aria-live'?: 'polite' };
  /** Lines below the description. */
  children?: ReactNode;
  actions?: ReactNode;
  back?: { to: string; label: string };
  wrap?: boolean;
}) {
  const heading = (
    <Title order={2} size="h3">
      {title}
    </Title>
  );
  const lines =
    description !== undefined || children !== undefined ? (
      <div>
        {heading}
        {description !== undefined ? (
          <Text size="sm" c="dimmed" {...descriptionProps}>
            {description}
          </Text>
        ) : null}
        {children}
      </div>
    ) : (
      heading
    );
  return (
    <>
      {back ? (
        <Anchor component={Link} to={back.to} size="sm">
          ← {back.label}
        </Anchor>
      ) : null}
      {actions !== undefined ? (
        <Group justify="space-between" align="flex-start" wrap={wrap ? 'wrap' : 'nowrap'}>
          {lines}
          <Group gap="xs" wrap="nowrap">
            {actions}
          </Group>
        </Group>
      ) : (
        lines
      )}
    </>
  );
}
