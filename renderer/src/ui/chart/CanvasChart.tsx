import {
  ColorSwatch,
  Group,
  parseThemeColor,
  Text,
  UnstyledButton,
  useComputedColorScheme,
  useMantineTheme,
  VisuallyHidden,
} from '@mantine/core';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { DIMMED_TEXT } from '../../app/theme.js';
import { formatCount } from '../format.js';
import { numberFormat } from '../locale.js';
import classes from './CanvasChart.module.css';
import type { ChartSeries, PanelChartProps } from './types.js';

/**
 * The kit's charts, drawn on a canvas by uPlot: a year of days in four series is a few thousand
 * bars, which Recharts drew as as many SVG elements (0.7–0.9 s); uPlot lays them out and they are
 * filled on the canvas as rectangles (about a millisecond; see the bars below).
 * Loaded with the first chart shown (ChartPanel.tsx), not with the first screen.
 *
 * The canvas is an image with a name and a description (what it shows, over which points) and is
 * focusable: the arrow keys (Home, End) move along the points, each read out through a live region
 * and shown in the tooltip the pointer shows too. The panel's table view has every number.
 * Colours come from the Mantine theme, per colour scheme. Once drawn, the element says how many
 * marks it drew in `data-chart-drawn` (the benchmark waits for it).
 */
export interface Model {
  labels: string[];
  values: (number | null)[][];
  series: { name: string; label: string; color: string }[];
}

export interface CanvasChartProps extends PanelChartProps {
  kind: 'bar' | 'line';
  /** The accessible name: the panel's title. */
  label: string;
}

/** A canvas to draw on: happy-dom (the component tests) has none, and gets the chart without its drawing. */
const canDraw = (() => {
  try {
    return typeof document !== 'undefined' && document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
})();

/** A step of 1, 2 or 5 × 10ⁿ that cuts `max` into about `parts` parts. */
function niceStep(max: number, parts: number, integers: boolean): number {
  const raw = max / parts;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw)!;
  return integers ? Math.max(1, Math.round(step)) : step;
}

const valueText = (v: number | null | undefined, integers: boolean) =>
  v === null || v === undefined || Number.isNaN(v) ? '—' : integers ? formatCount(v) : numberFormat({ maximumFractionDigits: 2 }).format(v);

export default function CanvasChart({ kind, label, h, data, dataKey, series, type, withLegend }: CanvasChartProps) {
  const theme = useMantineTheme();
  const scheme = useComputedColorScheme('light');
  const host = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  /** The point the keyboard last read (the pointer's, when it moved since). */
  const keyAt = useRef<number | null>(null);
  const [live, setLive] = useState('');
  const describedBy = useId();
  const stacked = type === 'stacked';

  // The screens build their rows anew at each render: the chart is drawn again only when what it
  // shows changes (a few thousand numbers: well under a millisecond to compare this way).
  const key = JSON.stringify({
    labels: data.map((d) => String((d as Record<string, unknown>)[dataKey] ?? '')),
    // Each series' values; counts (bars) are whole numbers, readings (lines) need not be.
    values: series.map((s) =>
      data.map((d) => {
        const v = (d as Record<string, unknown>)[s.name];
        const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
        return Number.isFinite(n) ? n : null;
      }),
    ),
    series: series.map((s) => ({ name: s.name, label: s.label ?? s.name, color: s.color, darkColor: s.darkColor })),
  });
  const all = useMemo(() => JSON.parse(key) as Model, [key]);
  // A legend's entry hides its series and shows it again (at least one stays shown); the chart, its
  // scale, its tooltip and what the keyboard reads then count the series shown.
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const model = useMemo(() => {
    if (!all.series.some((s) => hidden.has(s.name))) return all;
    const shown = all.series.map((s) => !hidden.has(s.name));
    return { ...all, series: all.series.filter((_, i) => shown[i]), values: all.values.filter((_, i) => shown[i]) };
  }, [all, hidden]);
  const toggle = (name: string) =>
    setHidden((was) => {
      const next = new Set(was);
      if (!next.delete(name)) next.add(name);
      return next.size < all.series.length ? next : was;
    });
  const { labels, values } = model;
  const colourOf = (s: ChartSeries) => parseThemeColor({ color: scheme === 'dark' ? (s.darkColor ?? s.color) : s.color, theme }).value;
  const integers = kind === 'bar';

  useEffect(() => {
    const el = host.current;
    const { labels, values, series } = model;
    const n = labels.length;
    if (!el || !canDraw || n === 0) return;
    delete el.dataset.chartDrawn;
    const xs = Array.from({ length: n }, (_, i) => i);
    // Stacked bars: each series drawn from zero to its running total, the top one first, so each
    // lower one paints over the part below it.
    let drawn = values.map((v) => v.map((x) => x ?? 0) as (number | null)[]);
    if (stacked) {
      const sums = new Array<number>(n).fill(0);
      drawn = values.map((v) => v.map((x, i) => (sums[i] = sums[i]! + (x ?? 0))));
    } else if (kind === 'line') drawn = values;
    const order = stacked ? series.map((_, i) => i).reverse() : series.map((_, i) => i);
    let top = 0;
    for (const v of drawn) for (const x of v) if (x !== null && x > top) top = x;
    const step = niceStep(top || 1, 4, integers);
    const yMax = Math.max(step, Math.ceil(top / step) * step);
    const ySplits: number[] = [];
    for (let y = 0; y <= yMax + step / 2; y += step) ySplits.push(y);

    const text = DIMMED_TEXT[scheme];
    const grid = scheme === 'dark' ? theme.colors.dark[4]! : theme.colors.gray[3]!;
    const font = `11px ${theme.fontFamily ?? 'system-ui, sans-serif'}`;
    const yWidth = 14 + 7 * Math.max(...ySplits.map((y) => valueText(y, integers).length));
    // The room a label of the horizontal axis takes, with a gap: by its longest ("3 Nov", "28 Oct 2026").
    const labelPx = 20 + 6.5 * Math.max(...labels.map((l) => l.length));
    const width = () => Math.max(160, el.clientWidth);

    const tip = document.createElement('div');
    tip.className = classes.tooltip!;
    tip.setAttribute('aria-hidden', 'true');
    tip.hidden = true;

    const showTip = (u: uPlot) => {
      const idx = u.cursor.idx;
      if (idx === null || idx === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
        tip.hidden = true;
        return;
      }
      tip.replaceChildren();
      const head = document.createElement('div');
      head.className = classes.tipHead!;
      head.textContent = labels[idx] ?? '';
      tip.append(head);
      series.forEach((s, i) => {
        const line = document.createElement('div');
        line.className = classes.tipLine!;
        const swatch = document.createElement('span');
        swatch.className = classes.swatch!;
        swatch.style.background = colourOf(s);
        const name = document.createElement('span');
        name.textContent = s.label;
        const value = document.createElement('span');
        value.className = classes.tipValue!;
        value.textContent = valueText(values[i]![idx], integers);
        line.append(swatch, name, value);
        tip.append(line);
      });
      tip.hidden = false;
      // Beside the cursor, on the side with room.
      const over = u.over.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      const x = over.left - box.left + u.cursor.left;
      const right = x + 12 + tip.offsetWidth <= box.width;
      tip.style.left = `${right ? x + 12 : Math.max(0, x - 12 - tip.offsetWidth)}px`;
      tip.style.top = `${Math.max(0, over.top - box.top + 4)}px`;
    };

    // Bars not stacked stand side by side in their point's slot (0.8 of a step), each series its share.
    const share = 0.8 / series.length;
    const scaleValue = 1 as uPlot.Series.BarsPathBuilderFacetUnit;
    // uPlot lays the bars out, and would fill each series' bars as one path. Narrow bars sit at
    // fractional pixels (uPlot snaps them only when the gaps are wide), and Chromium rasterises such
    // a path of hundreds of rectangles on the page's thread after the task that drew it, in software
    // without a GPU: 70–170 ms for a year of days in four series, between the screen's commit and its
    // first frame. The same rectangles filled one by one (fillRect, antialiased alike) take about
    // 1 ms. So the bars' rectangles are kept as uPlot lays them out, and filled at its drawSeries hook
    // (after that series' turn, so the stacking order holds); uPlot fills no path.
    const rects = new Map<number, number[]>();
    const fills = new Map<number, string>();
    const each: uPlot.Series.BarsPathBuilderOpts['each'] = (_u, si, _i, left, top, width, height) => {
      if (width > 0 && height > 0) rects.get(si)!.push(left, top, width, height);
    };
    const bars = (o: uPlot.Series.BarsPathBuilderOpts): uPlot.Series.PathBuilder => {
      const layOut = uPlot.paths.bars!({ ...o, each });
      return (u, si, i0, i1) => {
        rects.set(si, []);
        const paths = layOut(u, si, i0, i1);
        return paths && { ...paths, fill: null, stroke: null };
      };
    };
    const fillBars = (u: uPlot, si: number) => {
      const r = rects.get(si);
      if (!r?.length) return;
      const { ctx, bbox } = u;
      ctx.save();
      ctx.beginPath();
      ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
      ctx.clip();
      ctx.fillStyle = fills.get(si)!;
      for (let k = 0; k < r.length; k += 4) ctx.fillRect(r[k]!, r[k + 1]!, r[k + 2]!, r[k + 3]!);
      ctx.restore();
    };
    const sideBySide = (position: number) =>
      bars({
        disp: {
          x0: { unit: scaleValue, values: () => xs.map((x) => x - 0.4 + position * share) },
          size: { unit: scaleValue, values: () => xs.map(() => share) },
        },
      });

    const opts: uPlot.Options = {
      width: width(),
      height: h,
      legend: { show: false },
      // Room on the right for the last label, centred on its point.
      padding: [8, 18, 0, 0],
      cursor: { y: false, points: { show: false }, drag: { x: false, y: false, setScale: false } },
      scales: {
        // Half a step of margin at each end: a bar's width, or room for a line's first and last labels.
        x: { time: false, range: (): uPlot.Range.MinMax => [-0.5, n - 0.5] },
        y: { range: (): uPlot.Range.MinMax => [0, yMax] },
      },
      axes: [
        {
          stroke: text,
          font,
          size: 26,
          gap: 4,
          grid: { show: false },
          ticks: { show: false },
          // A label every so many points, as many as fit.
          splits: (u) => {
            const every = Math.max(1, Math.ceil((n * labelPx) / Math.max(1, u.bbox.width / uPlot.pxRatio)));
            // Off the very first point when they are sparse, so its label does not run under the value axis.
            const out: number[] = [];
            for (let i = Math.floor(every / 2); i < n; i += every) out.push(i);
            return out;
          },
          values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
        },
        {
          stroke: text,
          font,
          size: yWidth,
          gap: 4,
          grid: { stroke: grid, width: 1 },
          ticks: { show: false },
          splits: () => ySplits,
          values: (_u, splits) => splits.map((y) => valueText(y, integers)),
        },
      ],
      series: [
        {},
        ...order.map((i, at) => {
          const s = series[i]!;
          const colour = colourOf(s);
          fills.set(at + 1, colour);
          return kind === 'bar'
            ? {
                label: s.label,
                stroke: colour,
                fill: colour,
                width: 0,
                points: { show: false },
                paths: stacked || series.length === 1 ? bars({ size: [0.8, 48, 1], gap: 0 }) : sideBySide(i),
              }
            : { label: s.label, stroke: colour, width: 2, points: { show: false }, spanGaps: true };
        }),
      ],
      hooks: {
        setCursor: [showTip],
        drawSeries: kind === 'bar' ? [fillBars] : [],
        draw: [
          () => {
            el.dataset.chartDrawn = String(n * series.length);
          },
        ],
      },
    };
    const plot = new uPlot(opts, [xs, ...order.map((i) => drawn[i]!)] as uPlot.AlignedData, el);
    el.append(tip);
    plotRef.current = plot;
    let last = width();
    const resize = new ResizeObserver(() => {
      const w = width();
      if (w !== last) plot.setSize({ width: (last = w), height: h });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      tip.remove();
      plotRef.current = null;
    };
    // colourOf reads `theme` and `scheme`, which are in the list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [model, kind, stacked, h, scheme, theme, integers]);

  /** The keyboard's point: the arrow keys move the cursor along the points, and say each one. */
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const n = labels.length;
    if (!n) return;
    const u = plotRef.current;
    const at = u?.cursor.idx ?? keyAt.current;
    const next =
      e.key === 'ArrowRight'
        ? Math.min(n - 1, at === null ? 0 : at + 1)
        : e.key === 'ArrowLeft'
          ? Math.max(0, at === null ? n - 1 : at - 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : undefined;
    if (next === undefined) return;
    e.preventDefault();
    keyAt.current = next;
    u?.setCursor({ left: u.valToPos(next, 'x'), top: u.over.clientHeight / 2 });
    setLive(`${labels[next]}: ${model.series.map((s, i) => `${s.label} ${valueText(values[i]![next], integers)}`).join(', ')}`);
  };

  const first = labels[0] ?? '';
  const last = labels.at(-1) ?? '';
  const names = model.series.map((s) => s.label).join(', ');
  const description = `${kind === 'bar' ? (stacked ? 'Stacked bars' : 'Bars') : 'Lines'} of ${names}, ${labels.length} points from ${first} to ${last}. The arrow keys read each point; the table view has every number.`;

  return (
    <div>
      {withLegend ? (
        <Group gap={6} mb={4} justify="flex-end" style={{ rowGap: 2 }} role="group" aria-label={`${label}: series shown`}>
          {all.series.map((s) => {
            const shown = !hidden.has(s.name);
            return (
              <UnstyledButton
                key={s.name}
                className={classes.legendItem}
                aria-pressed={shown}
                title={shown ? `Hide ${s.label}` : `Show ${s.label}`}
                onClick={() => toggle(s.name)}
              >
                <Group gap={4} wrap="nowrap">
                  <ColorSwatch size={10} color={colourOf(s)} withShadow={false} style={{ opacity: shown ? 1 : 0.25 }} />
                  <Text size="xs" {...(shown ? {} : { td: 'line-through', c: 'dimmed' })}>
                    {s.label}
                  </Text>
                </Group>
              </UnstyledButton>
            );
          })}
        </Group>
      ) : null}
      <div
        ref={host}
        className={classes.chart}
        style={{ height: h }}
        role="img"
        aria-label={`${label}, chart`}
        aria-describedby={describedBy}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onBlur={() => plotRef.current?.setCursor({ left: -10, top: -10 })}
      />
      <VisuallyHidden id={describedBy}>{description}</VisuallyHidden>
      <VisuallyHidden aria-live="polite">{live}</VisuallyHidden>
    </div>
  );
}
