import { ActionIcon, Button, Checkbox, Group, Popover, Stack, Text } from '@mantine/core';

/** Which columns a table shows, and in what order: tick to show, arrows to move. */
export function ColumnChooser<Id extends string>({
  all,
  value,
  onChange,
  onReset,
}: {
  all: readonly { id: Id; label: string }[];
  value: readonly Id[];
  onChange(columns: Id[]): void;
  onReset?(): void;
}) {
  const label = (id: Id) => all.find((c) => c.id === id)?.label ?? id;
  const hidden = all.filter((c) => !value.includes(c.id));
  const move = (i: number, by: number) => {
    const next = [...value];
    const [moved] = next.splice(i, 1);
    next.splice(i + by, 0, moved!);
    onChange(next);
  };
  return (
    <Popover position="bottom-end" shadow="md" withArrow trapFocus>
      <Popover.Target>
        <Button size="xs" variant="default">
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown maw={320} aria-label="Choose columns">
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            Shown, in order
          </Text>
          {value.map((id, i) => (
            <Group key={id} gap={4} wrap="nowrap" justify="space-between">
              <Checkbox
                size="xs"
                label={label(id)}
                checked
                disabled={value.length === 1}
                onChange={() => onChange(value.filter((v) => v !== id))}
              />
              <Group gap={2} wrap="nowrap">
                <ActionIcon size="sm" variant="subtle" aria-label={`Move ${label(id)} left`} disabled={i === 0} onClick={() => move(i, -1)}>
                  ↑
                </ActionIcon>
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  aria-label={`Move ${label(id)} right`}
                  disabled={i === value.length - 1}
                  onClick={() => move(i, 1)}
                >
                  ↓
                </ActionIcon>
              </Group>
            </Group>
          ))}
          {hidden.length ? (
            <Text size="xs" c="dimmed" mt={6}>
              Hidden
            </Text>
          ) : null}
          {hidden.map((c) => (
            <Checkbox key={c.id} size="xs" label={c.label} checked={false} onChange={() => onChange([...value, c.id])} />
          ))}
          {onReset ? (
            <Button size="compact-xs" variant="subtle" mt={6} onClick={onReset}>
              Reset to my default columns
            </Button>
          ) : null}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
