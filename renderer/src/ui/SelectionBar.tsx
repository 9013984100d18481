import { Button, Group, Paper, Text, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { Selection } from './table/WindowedTable.js';

/**
 * The bar above a list while rows are chosen: how many ("3 consents chosen"), what can be done with
 * them, and a way to let go of them. A region named by `label`, so a screen reader can find it.
 * `children` come before the clear button and `after` behind it (an action set apart at the far
 * end gets `ml="auto"`); `strong` marks the bar in the primary colour with the count in bold, for
 * a selection an action will change.
 */
export function SelectionBar({
  label,
  summary,
  children,
  after,
  onClear,
  clearLabel = 'Clear',
  buttonSize = 'xs',
  strong = false,
}: {
  label: string;
  summary: ReactNode;
  children?: ReactNode;
  after?: ReactNode;
  onClear(): void;
  clearLabel?: string;
  buttonSize?: ButtonProps['size'];
  strong?: boolean;
}) {
  return (
    <Paper withBorder p={6} px="sm" role="region" aria-label={label} {...(strong ? { bg: 'var(--mantine-primary-color-light)' } : {})}>
      <Group gap="sm">
        <Text size="sm" {...(strong ? { fw: 600 } : {})}>
          {summary}
        </Text>
        {children}
        <Button size={buttonSize} variant="subtle" onClick={onClear}>
          {clearLabel}
        </Button>
        {after}
      </Group>
    </Paper>
  );
}

/**
 * Rows chosen from a windowed list, kept across filter changes, in the order they were chosen: the
 * rows, and the WindowedTable selection that ticks them (the header box clears them; `most` caps
 * how many are kept).
 */
export function useChosen<Row>(idOf: (row: Row) => string, opts: { headerLabel: string; most?: number }) {
  const [chosen, setChosen] = useState<Row[]>([]);
  const clear = () => setChosen([]);
  const selection: Selection<Row> = {
    isSelected: (row) => chosen.some((c) => idOf(c) === idOf(row)),
    toggle: (_index, row) =>
      setChosen((c) =>
        c.some((x) => idOf(x) === idOf(row)) ? c.filter((x) => idOf(x) !== idOf(row)) : [...c, row].slice(0, opts.most ?? Infinity),
      ),
    headerState: chosen.length ? 'some' : 'none',
    toggleAll: clear,
    headerLabel: opts.headerLabel,
  };
  return { chosen, clear, selection };
}
