import { Button, Group, type ButtonProps, type GroupProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A screen's row of filters: the inputs side by side, bottom-aligned (labels above, boxes on one
 * line), and — while any filter is set — the button that clears them all, last. Other Group props
 * (a role and name, `wrap`, `align`) pass through.
 */
export function FilterRow({
  children,
  onClear,
  clearLabel = 'Clear all',
  clearSize = 'xs',
  ...group
}: {
  children: ReactNode;
  /** Clears every filter; no button when undefined (nothing is set). */
  onClear?: (() => void) | undefined;
  clearLabel?: string;
  clearSize?: ButtonProps['size'];
} & Omit<GroupProps, 'children'>) {
  return (
    <Group gap="sm" align="flex-end" {...group}>
      {children}
      {onClear ? (
        <Button size={clearSize} variant="subtle" onClick={onClear}>
          {clearLabel}
        </Button>
      ) : null}
    </Group>
  );
}
