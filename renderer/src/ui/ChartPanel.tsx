import { Center, Group, Loader, Paper, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { createContext, lazy, Suspense, useContext, useState, type ReactNode } from 'react';
import type { PanelChartProps } from './chart/types.js';
import { formatCount } from './format.js';

export type { ChartSeries, PanelChartProps } from './chart/types.js';

/**
 * A chart with its numbers one toggle away as a table (for screen readers, and for whoever wants
 * the exact figures). The chart is an image named after the panel, with a description and a
 * keyboard reading of its points (ui/chart/CanvasChart.tsx); the table has every number.
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
    <ChartTitle.Provider value={title}>
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
          chart
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
    </ChartTitle.Provider>
  );
}

/** The panel's title: the chart's accessible name. */
const ChartTitle = createContext('Chart');

// The canvas charts (uPlot) load with the first chart shown, not with the first screen.
const CanvasChart = lazy(() => import('./chart/CanvasChart.js'));

function PanelChart(props: PanelChartProps & { kind: 'bar' | 'line' }) {
  const title = useContext(ChartTitle);
  return (
    <Suspense
      fallback={
        <Center h={props.h} role="status" aria-label={`${title}: loading the chart`}>
          <Loader size="sm" aria-hidden />
        </Center>
      }
    >
      <CanvasChart {...props} label={title} />
    </Suspense>
  );
}

/** Bars for a ChartPanel: a bar per row and series, side by side or stacked (`type="stacked"`). */
export function PanelBarChart(props: PanelChartProps) {
  return <PanelChart {...props} kind="bar" />;
}

/** Lines for a ChartPanel, a line per series; rows without a value leave a gap that the line spans. */
export function PanelLineChart(props: PanelChartProps) {
  return <PanelChart {...props} kind="line" />;
}
