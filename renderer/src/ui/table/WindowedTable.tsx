import { Skeleton, Table, UnstyledButton } from '@mantine/core';
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { markFirstScreenShown } from '../first-screen.js';
import { useRowWindow } from './useRowWindow.js';
import type { WindowedRows } from './useWindowedRows.js';
import classes from './WindowedTable.module.css';

/**
 * The console's table for long lists: rows virtualised and read from main a block at a time, sort
 * by any column header, optional row selection (checkboxes, shift-click for a range), and the
 * keyboard: ↑/↓ or j/k move, Home/End/PageUp/PageDown jump, Enter opens, Space or x selects.
 * The table itself takes focus and marks the active row (aria-activedescendant), so a long list is
 * one tab stop, not thousands.
 */
export const ROW_HEIGHT = 34;

export interface Column<Row> {
  id: string;
  header: string;
  width: number;
  cell(row: Row): ReactNode;
  sortable?: boolean;
}

export interface TableSort {
  field: string;
  direction: 'asc' | 'desc';
}

export interface Selection<Row> {
  isSelected(row: Row): boolean;
  /** A click or Space on a row's checkbox; `range` when shift was held (from the last toggled row). */
  toggle(index: number, row: Row, range: boolean): void;
  /** The header checkbox: every row matching is selected, some are, or none. */
  headerState: 'all' | 'some' | 'none';
  toggleAll(): void;
  headerLabel: string;
}

export interface WindowedTableProps<Row> {
  label: string;
  total: number;
  rows: WindowedRows<Row>;
  columns: readonly Column<Row>[];
  rowId(row: Row): string;
  /** How a screen reader names a row (its checkbox says "Select <this>"). */
  rowLabel(row: Row): string;
  sort?: TableSort;
  onSort?(field: string): void;
  onOpen?(row: Row, index: number): void;
  selection?: Selection<Row>;
  activeIndex: number;
  onActiveChange(index: number): void;
  empty?: ReactNode;
  /**
   * Rows drawn beyond the visible ones, each way (15). Fewer make each redraw cheaper: the consents
   * list redraws its window at every keystroke of a search.
   */
  overscan?: number;
  /** Marks a row (e.g. a webhook failure) with a colour stripe and an accessible note. */
  rowTone?(row: Row): 'danger' | 'warning' | undefined;
  /**
   * What the view shown was read for (a search's text), as `data-view` on the grid: a search box
   * that redraws alone runs ahead of the rows, and tests and benchmarks tell by it whose rows show.
   */
  view?: string;
}

export function WindowedTable<Row>(props: WindowedTableProps<Row>) {
  const { total, rows, columns, selection, activeIndex, onActiveChange } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const idBase = useId().replace(/:/g, '');
  const headRef = useRef<HTMLTableSectionElement>(null);
  const windowed = useRowWindow({ scrollRef, headRef, count: total, rowHeight: ROW_HEIGHT, overscan: props.overscan ?? 15 });
  const items = windowed.indexes;
  const first = items[0] ?? 0;
  const last = items.at(-1) ?? 0;
  const { setRange } = rows;
  useEffect(() => setRange(first, last), [first, last, setRange]);
  // The console's first screen has shown its rows (or that it has none): the shell's parts that can
  // wait load now (ui/first-screen.ts).
  const showsRows = items.length > 0 ? rows.rowAt(first) !== undefined : !rows.fetching;
  useEffect(() => {
    if (showsRows) markFirstScreenShown();
  }, [showsRows]);

  // The header is drawn again only when its columns, sort or selection state change, not at each
  // redraw of the rows (a keystroke of a search redraws the screen twice): its handlers are passed
  // through stable functions that call the latest ones.
  const handlers = useRef({ onSort: props.onSort, toggleAll: selection?.toggleAll });
  useLayoutEffect(() => {
    handlers.current = { onSort: props.onSort, toggleAll: selection?.toggleAll };
  });
  const sortBy = useCallback((field: string) => handlers.current.onSort?.(field), []);
  const toggleAll = useCallback(() => handlers.current.toggleAll?.(), []);

  const edges = useSideways(scrollRef);
  const { padTop, padBottom } = windowed;
  const colSpan = columns.length + (selection ? 1 : 0);
  const rowDomId = (index: number) => `${idBase}-row-${index}`;

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(total - 1, index));
    onActiveChange(next);
    windowed.scrollToIndex(next);
  };

  // One click handler for every row (rows are memoised: a redraw of the screen redraws only the
  // rows that changed). A row's checkbox selects it (shift: a range); elsewhere on a row opens it.
  const onRowClick = (e: MouseEvent<HTMLElement>) => {
    const target = e.target as HTMLElement;
    const tr = target.closest<HTMLElement>('tr[data-index]');
    if (!tr) return;
    const index = Number(tr.dataset.index);
    const row = rows.rowAt(index);
    if (!row) return;
    if (selection && target.matches('input[data-select]')) selection.toggle(index, row, e.shiftKey);
    onActiveChange(index);
    if (target.closest('input,button,a')) return;
    props.onOpen?.(row, index);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableElement>) => {
    if (e.target !== tableRef.current || total === 0) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 600) / ROW_HEIGHT) - 1);
    const row = rows.rowAt(activeIndex);
    switch (e.key) {
      case 'ArrowDown':
      case 'j':
        moveTo(activeIndex + 1);
        break;
      case 'ArrowUp':
      case 'k':
        moveTo(activeIndex - 1);
        break;
      case 'PageDown':
        moveTo(activeIndex + page);
        break;
      case 'PageUp':
        moveTo(activeIndex - page);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(total - 1);
        break;
      case 'Enter':
        if (row) props.onOpen?.(row, activeIndex);
        break;
      case ' ':
      case 'x':
        if (row && selection) selection.toggle(activeIndex, row, e.shiftKey);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  return (
    <div className={classes.frame} data-more-left={edges.left || undefined} data-more-right={edges.right || undefined}>
      <div ref={scrollRef} className={classes.scroll} data-testid="table-scroll">
        <Table
          ref={tableRef}
          role="grid"
          tabIndex={0}
          onKeyDown={onKeyDown}
          onFocus={() => {
            if (total > 0 && activeIndex >= total) onActiveChange(0);
          }}
          aria-label={props.label}
          aria-rowcount={total + 1}
          aria-multiselectable={selection ? true : undefined}
          aria-activedescendant={total > 0 && activeIndex < total ? rowDomId(activeIndex) : undefined}
          // The rows shown are the previous view's while this one's are read (useWindowedRows' keepWhileReading).
          aria-busy={rows.stale || undefined}
          data-view={props.view}
          stickyHeader
          verticalSpacing={6}
          fz="sm"
          className={classes.table}
          data-sticky={selection ? 2 : 1}
          style={{ minWidth: columns.reduce((w, c) => w + c.width, selection ? 44 : 0) }}
        >
          <colgroup>
            {selection ? <col style={{ width: 44 }} /> : null}
            {columns.map((c) => (
              <col key={c.id} style={{ width: c.width }} />
            ))}
          </colgroup>
          <TableHead
            headRef={headRef}
            columns={columns}
            sort={props.sort}
            onSort={props.onSort ? sortBy : undefined}
            selectLabel={selection?.headerLabel}
            selectState={selection?.headerState}
            toggleAll={toggleAll}
            empty={total === 0}
          />
          <Table.Tbody onClick={onRowClick}>
            {padTop > 0 && (
              <tr aria-hidden>
                <td colSpan={colSpan} style={{ height: padTop, padding: 0, border: 0 }} />
              </tr>
            )}
            {items.map((index) => {
              const row = rows.rowAt(index);
              if (!row)
                return (
                  <tr key={`loading-${index}`} aria-rowindex={index + 2} className={classes.row} style={{ height: ROW_HEIGHT }} aria-busy>
                    <td colSpan={colSpan} className={classes.cell}>
                      <Skeleton height={12} radius="sm" aria-label="Loading row" />
                    </td>
                  </tr>
                );
              return (
                <TableRow
                  key={props.rowId(row)}
                  row={row}
                  index={index}
                  id={props.rowId(row)}
                  domId={rowDomId(index)}
                  active={index === activeIndex}
                  selected={selection ? selection.isSelected(row) : undefined}
                  label={selection ? props.rowLabel(row) : undefined}
                  tone={props.rowTone?.(row)}
                  columns={columns}
                />
              );
            })}
            {padBottom > 0 && (
              <tr aria-hidden>
                <td colSpan={colSpan} style={{ height: padBottom, padding: 0, border: 0 }} />
              </tr>
            )}
          </Table.Tbody>
        </Table>
        {total === 0 ? props.empty : null}
      </div>
      {edges.right ? (
        <span className={classes.moreCue} aria-hidden>
          More columns →
        </span>
      ) : null}
    </div>
  );
}

/**
 * Whether a table scrolled sideways has more to the left or to the right of what shows: the frame
 * then shades that edge and says "More columns →" (a narrow window hides columns otherwise with no
 * cue). Worked out on scroll and resize; a redraw only when one of the two changes.
 */
function useSideways(scrollRef: RefObject<HTMLDivElement | null>): { left: boolean; right: boolean } {
  const [edges, setEdges] = useState({ left: false, right: false });
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => {
      const left = el.scrollLeft > 1;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setEdges((e) => (e.left === left && e.right === right ? e : { left, right }));
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const resized = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : undefined;
    resized?.observe(el);
    if (el.firstElementChild) resized?.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', measure);
      resized?.disconnect();
    };
  }, [scrollRef]);
  return edges;
}

const ignoreChange = () => undefined;

interface TableHeadProps<Row> {
  headRef: RefObject<HTMLTableSectionElement | null>;
  columns: readonly Column<Row>[];
  sort: TableSort | undefined;
  /** Undefined: the columns are not sortable. */
  onSort: ((field: string) => void) | undefined;
  /** The selection's header checkbox (undefined without selection). */
  selectLabel: string | undefined;
  selectState: Selection<Row>['headerState'] | undefined;
  toggleAll(): void;
  empty: boolean;
}

/** The header row: sort buttons and the selection's checkbox, redrawn only when one of its props changes. */
const TableHead = memo(function TableHead<Row>({
  headRef,
  columns,
  sort,
  onSort,
  selectLabel,
  selectState,
  toggleAll,
  empty,
}: TableHeadProps<Row>) {
  return (
    <Table.Thead ref={headRef}>
      <Table.Tr aria-rowindex={1}>
        {selectState !== undefined ? (
          <Table.Th>
            <HeaderCheckbox label={selectLabel ?? ''} state={selectState} onToggle={toggleAll} disabled={empty} />
          </Table.Th>
        ) : null}
        {columns.map((c) => {
          const active = sort?.field === c.id;
          const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined;
          return (
            <Table.Th key={c.id} aria-sort={ariaSort}>
              {c.sortable !== false && onSort ? (
                <UnstyledButton onClick={() => onSort(c.id)} className={classes.sortButton} data-active={active || undefined}>
                  {c.header}
                  <span aria-hidden className={classes.sortMark}>
                    {active ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}
                  </span>
                </UnstyledButton>
              ) : (
                <span className={classes.plainHeader}>{c.header}</span>
              )}
            </Table.Th>
          );
        })}
      </Table.Tr>
    </Table.Thead>
  );
}) as <Row>(props: TableHeadProps<Row>) => ReactNode;

interface TableRowProps<Row> {
  row: Row;
  index: number;
  id: string;
  domId: string;
  active: boolean;
  /** Undefined without selection. */
  selected: boolean | undefined;
  label: string | undefined;
  tone: 'danger' | 'warning' | undefined;
  columns: readonly Column<Row>[];
}

/**
 * One row, redrawn only when its row, position, cursor, selection or columns change (a new count,
 * a keystroke's re-render of the screen, leave it alone).
 * Plain elements, not Mantine's Table.Tr/Td and Checkbox: the rows are redrawn at every keystroke
 * of a search, and each Mantine component resolves its props and styles.
 */
const TableRow = memo(function TableRow<Row>(props: TableRowProps<Row>) {
  const { row, index, selected } = props;
  return (
    <tr
      id={props.domId}
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-testid="table-row"
      data-row-id={props.id}
      data-index={index}
      data-active={props.active || undefined}
      data-tone={props.tone}
      className={classes.row}
      style={{ height: ROW_HEIGHT }}
    >
      {selected !== undefined ? (
        <td className={classes.cell}>
          <input
            type="checkbox"
            data-select
            className={classes.check}
            tabIndex={-1}
            aria-label={`Select ${props.label}`}
            checked={selected}
            onChange={ignoreChange}
          />
        </td>
      ) : null}
      {props.columns.map((c) => (
        <td key={c.id} className={classes.cell}>
          {c.cell(row)}
        </td>
      ))}
    </tr>
  );
}) as <Row>(props: TableRowProps<Row>) => ReactNode;

/** The header's checkbox, native like the rows' (mixed when some rows are selected). */
function HeaderCheckbox(props: { label: string; state: 'all' | 'some' | 'none'; onToggle(): void; disabled: boolean }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = props.state === 'some';
  }, [props.state]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className={classes.check}
      aria-label={props.label}
      checked={props.state === 'all'}
      onChange={() => props.onToggle()}
      disabled={props.disabled}
    />
  );
}
