import { BarChart, LineChart, type BarChartProps, type LineChartProps } from '@mantine/charts';
import { Group, Paper, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { formatCount } from './format.js';

/**
 * A chart with its numbers one toggle away as a table (for screen readers, and for whoever wants
 * the exact figures). The chart itself is hidden from assistive technology; the table is the truth.
 */
export interface ChartColumn<Row> {
  key: string;
  label: string;
  value(row: Row): string | number;
}

export function ChartPanel<Row>({
  title,
  description,
  chart,
  rows,
  columns,
  empty,
}: {
  title: string;
  description?: string;
  chart: ReactNode;
  rows: readonly Row[];
  columns: readonly ChartColumn<Row>[];
  empty?: string;
}) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  return (
    <Paper withBorder p="sm" component="section" aria-label={title}>
      <Group justify="space-between" mb="xs" wrap="nowrap" align="flex-start">
        <div>
          <Title order={3} size="h5">
            {title}
          </Title>
          {description ? (
            <Text size="xs" c="dimmed">
              {description}
            </Text>
          ) : null}
        </div>
        <SegmentedControl
          size="xs"
          value={view}
          onChange={(v) => setView(v as 'chart' | 'table')}
          data={[
            { value: 'chart', label: 'Chart' },
            { value: 'table', label: 'Table' },
          ]}
          aria-label={`${title}: show as`}
          style={{ flexShrink: 0 }}
        />
      </Group>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty ?? 'Nothing to show yet.'}
        </Text>
      ) : view === 'chart' ? (
        // Hidden from assistive technology (the table is its accessible form); the charts of the kit
        // below hold nothing focusable, and pointer tooltips still work.
        <div aria-hidden>{chart}</div>
      ) : (
        <Table.ScrollContainer minWidth={300} mah={320}>
          <Table fz="xs" striped stickyHeader aria-label={`${title} (numbers)`}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.key}>{c.label}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r, i) => (
                <Table.Tr key={i}>
                  {columns.map((c) => {
                    const v = c.value(r);
                    return <Table.Td key={c.key}>{typeof v === 'number' ? formatCount(v) : v}</Table.Td>;
                  })}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}

/**
 * A bar chart for a ChartPanel: Recharts' keyboard layer is off, since the panel hides the chart
 * from assistive technology (its table is the accessible form) and a hidden element must hold
 * nothing focusable. Pointer tooltips still work.
 */
export function PanelBarChart(props: BarChartProps) {
  return (
    <BarChart
      {...props}
      barChartProps={{ accessibilityLayer: false, ...props.barChartProps }}
      // Counts: no "0.75" ticks.
      yAxisProps={{ allowDecimals: false, ...props.yAxisProps }}
    />
  );
}

/** A line chart for a ChartPanel, on the same terms as PanelBarChart. */
export function PanelLineChart(props: LineChartProps) {
  return <LineChart {...props} lineChartProps={{ accessibilityLayer: false, ...props.lineChartProps }} />;
}
