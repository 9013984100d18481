import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from '../../renderer/src/app/theme.js';
import { ChartPanel, PanelBarChart, PanelLineChart } from '../../renderer/src/ui/ChartPanel.js';

/**
 * The kit's chart panel without a canvas (happy-dom has none; Chromium draws it in the e2e tests):
 * the chart loads when first shown, is an image named after its panel with a description of what
 * it shows, reads its points out from the keyboard, and has its numbers one toggle away.
 */
const rows = [
  { day: '2026-11-01', label: '1 Nov', sent: 12, failed: 1 },
  { day: '2026-11-02', label: '2 Nov', sent: 1234, failed: 0 },
  { day: '2026-11-03', label: '3 Nov', sent: 7, failed: 3 },
];

function Panel({ line = false }: { line?: boolean }) {
  const props = {
    h: 160,
    data: rows,
    dataKey: 'label',
    series: [
      { name: 'sent', label: 'Delivered', color: 'teal.6' },
      { name: 'failed', label: 'Failed', color: 'red.7' },
    ],
  };
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <ChartPanel
        title="Deliveries per day"
        rows={rows}
        columns={[
          { key: 'day', label: 'Day', value: (r) => r.day },
          { key: 'sent', label: 'Delivered', value: (r) => r.sent },
          { key: 'failed', label: 'Failed', value: (r) => r.failed },
        ]}
        chart={line ? <PanelLineChart {...props} /> : <PanelBarChart {...props} type="stacked" withLegend />}
      />
    </MantineProvider>
  );
}

describe('ChartPanel', () => {
  it('hides a series from its legend entry and shows it again; one always stays', async () => {
    render(<Panel />);
    const chart = await screen.findByRole('img', { name: 'Deliveries per day, chart' });
    const legend = screen.getByRole('group', { name: 'Deliveries per day: series shown' });
    const delivered = within(legend).getByRole('button', { name: 'Delivered' });
    const failed = within(legend).getByRole('button', { name: 'Failed' });
    expect(delivered).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(delivered);
    expect(delivered).toHaveAttribute('aria-pressed', 'false');
    expect(delivered).toHaveAttribute('title', 'Show Delivered');
    // What is drawn and read out is the series shown.
    expect(chart).toHaveAccessibleDescription(expect.stringMatching(/^Stacked bars of Failed, 3 points/));
    chart.focus();
    await userEvent.keyboard('{End}');
    expect(screen.getByText('3 Nov: Failed 3')).toBeInTheDocument();
    // The last one shown cannot be hidden: the chart would be empty.
    await userEvent.click(failed);
    expect(failed).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(delivered);
    expect(delivered).toHaveAttribute('aria-pressed', 'true');
    expect(chart).toHaveAccessibleDescription(expect.stringMatching(/^Stacked bars of Delivered, Failed,/));
  });

  it('shows the chart as a named image with a description, and reads its points from the keyboard', async () => {
    render(<Panel />);
    const chart = await screen.findByRole('img', { name: 'Deliveries per day, chart' });
    expect(chart).toHaveAccessibleDescription(
      'Stacked bars of Delivered, Failed, 3 points from 1 Nov to 3 Nov. The arrow keys read each point; the table view has every number.',
    );
    // The legend names each series.
    const panel = screen.getByRole('region', { name: 'Deliveries per day' });
    expect(within(panel).getByText('Delivered')).toBeInTheDocument();
    chart.focus();
    await userEvent.keyboard('{End}');
    expect(within(panel).getByText('3 Nov: Delivered 7, Failed 3')).toBeInTheDocument();
    await userEvent.keyboard('{Home}');
    expect(within(panel).getByText('1 Nov: Delivered 12, Failed 1')).toBeInTheDocument();
  });

  it('has the numbers one toggle away, and draws lines too', async () => {
    render(<Panel line />);
    const chart = await screen.findByRole('img', { name: 'Deliveries per day, chart' });
    expect(chart).toHaveAccessibleDescription(/^Lines of Delivered, Failed, 3 points/);
    await userEvent.click(screen.getByText('Table'));
    const table = screen.getByRole('table', { name: 'Deliveries per day (numbers)' });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).getByText('1,234')).toBeInTheDocument();
  });
});
