/**
 * A series of a panel chart: the rows' key holding its values, its name, and a Mantine colour
 * ("teal.6") or a CSS one; `darkColor` in dark mode when it differs (glossary.ts: colours by meaning).
 */
export interface ChartSeries {
  name: string;
  label?: string;
  color: string;
  darkColor?: string;
}

/** What a screen gives a panel chart (PanelBarChart, PanelLineChart): its rows, the key of each row's label, its series. */
export interface PanelChartProps {
  /** The height of the plot, in pixels. */
  h: number;
  data: readonly object[];
  /** The key of each row's label on the horizontal axis ("3 Mar"). */
  dataKey: string;
  series: readonly ChartSeries[];
  /** Bars only: the series stacked on each other. */
  type?: 'default' | 'stacked';
  withLegend?: boolean;
}
