import { Button, Collapse, Paper, Stack } from '@mantine/core';
import { useDebouncedCallback, useHotkeys } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { CONSENT_COLUMN_LABELS, DEFAULT_CONSENT_COLUMNS } from '../../../../shared/consents/columns.js';
import { CONSENT_SORT_FIELDS } from '../../../../shared/ipc/consent-fields.js';
import type { ConsentFilter, ConsentCountOutput, ConsentRow, ConsentSortField } from '../../../../shared/ipc/contract.js';
import { MAX_BULK } from '../../../../shared/ipc/limits.js';
import { useClient } from '../../bridge/ClientContext.js';
import { ColumnChooser } from '../../ui/ColumnChooser.js';
import { FilterRow } from '../../ui/FilterRow.js';
import { formatCount, localZone, plural } from '../../ui/format.js';
import { ListHeader, rangeLine } from '../../ui/ListHeader.js';
import { SelectionBar } from '../../ui/SelectionBar.js';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.js';
import { useWindowedList } from '../../ui/table/useWindowedList.js';
import { WindowedTable } from '../../ui/table/WindowedTable.js';
import { useSaveSettings, useSettings } from '../settings/settings.js';
import { useAppStatus } from '../status/app-status.js';
import { useCan } from '../status/can.js';
import { Unavailable } from '../../ui/Unavailable.js';
import { useUrlView } from '../../ui/url.js';
import { HighlightSearch } from '../../ui/Highlighted.js';
import { SearchBox, type SearchText } from '../../ui/SearchBox.js';
import { consentColumn, consentRowLabel, matchedInColumn } from './columns.js';
import { StatusChips } from './StatusChips.js';
import { SavedViews } from './SavedViews.js';
import { activeFilterCount, filterOf, nextSort, paramsFromView, viewFromParams } from './view.js';

// Loaded when first opened, not with the list: the first screen shows its rows without the filters'
// date pickers and selects, or the dialogs' forms (issue 21).
const ConsentFilters = lazy(() => import('./ConsentFilters.js').then((m) => ({ default: m.ConsentFilters })));
const BulkRevokeDialog = lazy(() => import('../consent-actions/BulkRevokeDialog.js').then((m) => ({ default: m.BulkRevokeDialog })));
const CreateConsentDialog = lazy(() =>
  import('../consent-actions/CreateConsentDialog.js').then((m) => ({ default: m.CreateConsentDialog })),
);
const filtersLoading = <LoadingState label="Loading the filters…" />;

/** How long a search's reads may take before the screen shows it with the previous rows, busy. */
const SHOW_BUSY_MS = 150;
/** One object, so that the search box (memoised) is not drawn again with the screen. */
const SEARCH_BOX_STYLE = { flex: 1 };

/** Whether something has been shown once: then it stays mounted (a dialog closes with its animation). */
function useShownOnce(shown: boolean): boolean {
  const [once, setOnce] = useState(shown);
  if (shown && !once) setOnce(true);
  return once || shown;
}

/** The view in the URL, and a setter that writes it back (a new history entry, so Back works). */
const useConsentView = () => useUrlView(viewFromParams, paramsFromView);

/**
 * The consent list: one search box for any identifier, status chips with counts, every filter, sort
 * by any column, the user's columns, saved views, selection and bulk revocation, export of the whole
 * filtered view. Everything is read from the cache, a window at a time; the view lives in the URL.
 */
export function ConsentsScreen() {
  const client = useClient();
  const navigate = useNavigate();
  const [view, setView] = useConsentView();
  const settings = useSettings().data;
  const saveSettings = useSaveSettings();
  // New consent, bulk revoke and revoke selected: a support agent's or an admin's, online only.
  const canCreate = useCan('consents:create', { online: true });
  const canBulk = useCan('bulk:revoke', { online: true });
  const cached = useAppStatus().data?.consentCount;
  // Search as you type: the box (SearchBox) keeps what is typed and redraws alone; each text starts
  // its reads at once (onType, below) and the screen shows it when they are in. The URL follows
  // after a pause (replacing, so Back skips keystrokes). The screen follows the URL only when the
  // URL changed from elsewhere (Back, a saved view), never to an older value of what is being typed.
  const pushed = useRef(view.search);
  const pushSearch = useDebouncedCallback((q: string) => {
    pushed.current = q;
    setView({ search: q }, { replace: true });
  }, 400);
  const [search, setSearch] = useState(view.search);
  /** What the box shows when the URL changed from elsewhere. */
  const [boxText, setBoxText] = useState<SearchText>({ text: view.search });
  /** The last text typed: a slower answer to an earlier one never shows it. */
  const latest = useRef(view.search);
  useEffect(() => {
    if (view.search !== pushed.current) {
      latest.current = view.search;
      setSearch(view.search);
      setBoxText({ text: view.search });
    }
    pushed.current = view.search;
  }, [view.search]);
  const filter = filterOf({ ...view, search });
  const columnList = view.columns ?? settings?.consentColumns ?? DEFAULT_CONSENT_COLUMNS;
  const columnKey = columnList.join(',');
  // One array (and one set of table columns) while the columns stay: the table's rows are memoised on them.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the names are the identity of the columns
  const columns = useMemo(() => [...columnList], [columnKey]);
  // While a search is typed, a column beside the first two says where it matched rows whose match is not shown.
  const searching = search.trim() !== '';
  const tableColumns = useMemo(() => {
    const shown = columns.map(consentColumn);
    return searching ? [...shown.slice(0, 2), matchedInColumn(columns), ...shown.slice(2)] : shown;
  }, [columns, searching]);

  const queryClient = useQueryClient();
  // Fresh for a while, as the rows' blocks are: a search's count read before the screen shows it is
  // not read again when it does (a write to the cache marks it stale).
  const countOf = (f: ConsentFilter) => ({
    queryKey: ['consents:count', f],
    queryFn: () => client.consentsCount({ filter: f }),
    staleTime: 30_000,
  });
  const count = useQuery({ ...countOf(filter), placeholderData: keepPreviousData });
  const total = count.data?.total ?? 0;
  const listOf = (f: ConsentFilter) => ({
    key: ['consents:list', f, view.sort],
    fetch: async (offset: number, limit: number) => (await client.consentsList({ filter: f, sort: view.sort, offset, limit })).rows,
  });
  // The keyboard cursor belongs to one view: a new filter or sort starts it at the top again.
  // A new search shows the previous search's rows (the table busy) until its own are read.
  const { rows, table, prefetch } = useWindowedList<ConsentRow>({
    ...listOf(filter),
    total: count.data?.total,
    cursorKey: [filter, view.sort],
    keepWhileReading: true,
  });
  // Each keystroke starts its reads before the screen redraws: the first window and the count in
  // one answer (withCount), so they are drawn together; another window on screen, and the count when
  // the first window is already read, by their own calls. The screen redraws with the text when
  // both are in (its rows and count drawn at once, never busy), or after SHOW_BUSY_MS with the
  // previous rows, the table busy, while a slow read goes on.
  const onType = (text: string) => {
    latest.current = text;
    const next = filterOf({ ...view, search: text });
    const { key, fetch } = listOf(next);
    let counted: Promise<ConsentCountOutput> | undefined;
    const rowsRead = prefetch(key, (offset, limit) => {
      if (offset !== 0) return fetch(offset, limit);
      const answer = client.consentsList({ filter: next, sort: view.sort, offset, limit, withCount: true });
      counted = answer.then((a) => a.count ?? client.consentsCount({ filter: next }));
      return answer.then((a) => a.rows);
    });
    const count = countOf(next);
    const countRead = queryClient.prefetchQuery(counted ? { ...count, queryFn: () => counted! } : count);
    const show = () => {
      if (latest.current === text) setSearch(text);
    };
    void Promise.all([rowsRead, countRead]).then(show);
    setTimeout(show, SHOW_BUSY_MS);
    pushSearch(text);
  };
  // The box is drawn once, not at each redraw of the screen: it calls the latest onType through a stable function.
  const onTypeNow = useRef(onType);
  useLayoutEffect(() => {
    onTypeNow.current = onType;
  });
  const typeInBox = useCallback((text: string) => onTypeNow.current(text), []);

  const searchRef = useRef<HTMLInputElement>(null);
  useHotkeys([['/', () => searchRef.current?.focus()]]);

  const [filtersOpen, setFiltersOpen] = useState(activeFilterCount(view) > 0);
  // Read when the filters are shown: counting every value is a pass over the whole table while the
  // cache is changing (a sync at start), and the first screen does not need it.
  const options = useQuery({
    queryKey: ['consents:options'],
    queryFn: () => client.consentsOptions({}),
    staleTime: 60_000,
    enabled: filtersOpen,
  });

  // Selection: explicit ids, kept across filter changes; "all matching" adds the filter's ids (≤ 10,000).
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const toggle = async (index: number, row: ConsentRow, range: boolean) => {
    if (range && anchor !== null && anchor !== index) {
      const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
      const { ids } = await client.consentsIds({ filter, sort: view.sort, limit: Math.min(MAX_BULK, to + 1) });
      setSelected((s) => new Set([...s, ...ids.slice(from)]));
    } else {
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(row.consentId)) next.delete(row.consentId);
        else next.add(row.consentId);
        return next;
      });
    }
    setAnchor(index);
  };
  const selectAllMatching = async () => {
    const { ids } = await client.consentsIds({ filter, sort: view.sort, limit: MAX_BULK });
    setSelected((s) => new Set([...s, ...ids]));
  };
  // The palette's "Bulk revoke…" arrives as ?bulk=1.
  const [params, setParams] = useSearchParams();
  const [bulkChosen, setBulkChosen] = useState<'selection' | 'paste' | null>(null);
  const bulkOpen = bulkChosen ?? (params.get('bulk') ? 'paste' : null);
  const setBulkOpen = (mode: 'selection' | 'paste' | null) => {
    setBulkChosen(mode);
    if (mode === null && params.get('bulk'))
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.delete('bulk');
          return next;
        },
        { replace: true },
      );
  };
  const [createOpen, setCreateOpen] = useState(false);
  const filtersSet = activeFilterCount(view);
  const filtered = !!(filtersSet || search.trim() || view.statuses.length);

  // What does not change as the search is typed is drawn once, not at each keystroke and answer:
  // the header's actions, the filters, the status chips (until the counts change) and the dialogs.
  const saveColumns = saveSettings.mutate;
  const actions = useMemo(
    () => (
      <>
        <Unavailable label="New consent" reason={canCreate.reason}>
          <Button size="xs" onClick={() => setCreateOpen(true)} disabled={!canCreate.allowed}>
            New consent
          </Button>
        </Unavailable>
        <Unavailable label="Bulk revoke…" reason={canBulk.reason}>
          <Button size="xs" variant="default" onClick={() => setBulkOpen('paste')} disabled={!canBulk.allowed}>
            Bulk revoke…
          </Button>
        </Unavailable>
        <SavedViews view={view} columns={columns} onOpen={(v) => navigate({ search: paramsFromView(v).toString() })} />
        <ColumnChooser
          all={CONSENT_SORT_FIELDS.map((id) => ({ id, label: CONSENT_COLUMN_LABELS[id] }))}
          value={columns}
          onChange={(cols) => {
            setView({ columns: cols }, { replace: true });
            saveColumns({ consentColumns: cols });
          }}
          onReset={() => setView({ columns: null }, { replace: true })}
        />
      </>
    ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setBulkOpen reads params and setParams (listed)
    [
      canCreate.reason,
      canCreate.allowed,
      canBulk.reason,
      canBulk.allowed,
      view,
      columns,
      navigate,
      setView,
      saveColumns,
      params,
      setParams,
    ],
  );
  // The export reads the view when it starts, not when the menu was drawn.
  const exportView = useRef({ filter, sort: view.sort, columns });
  useEffect(() => {
    exportView.current = { filter, sort: view.sort, columns };
  });
  const startExport = useCallback(
    (format: 'csv' | 'json') => client.consentsExport({ ...exportView.current, format, timeZone: localZone() }),
    [client],
  );
  const exportLabel = `Export all ${formatCount(total)} consents of this view`;
  const exportMenu = useMemo(
    () => ({ channel: 'consents:export' as const, label: exportLabel, start: startExport }),
    [exportLabel, startExport],
  );
  const setStatuses = useCallback((statuses: string[]) => setView({ statuses }), [setView]);
  const chips = useMemo(() => <StatusChips view={view} counts={count.data} onChange={setStatuses} />, [view, count.data, setStatuses]);
  const filtersShown = useShownOnce(filtersOpen);
  const filters = useMemo(
    () => (
      <Collapse expanded={filtersOpen}>
        <Paper withBorder p="xs">
          {filtersShown && (
            <Suspense fallback={filtersLoading}>
              <ConsentFilters view={view} options={options.data} onChange={(change) => setView(change)} />
            </Suspense>
          )}
        </Paper>
      </Collapse>
    ),
    [filtersOpen, filtersShown, view, options.data, setView],
  );
  const bulkShown = useShownOnce(bulkOpen !== null);
  const createShown = useShownOnce(createOpen);
  const dialogs = useMemo(
    () => (
      <Suspense fallback={null}>
        {bulkShown && (
          <BulkRevokeDialog
            opened={bulkOpen !== null}
            onClose={() => setBulkOpen(null)}
            onStarted={() => setSelected(new Set())}
            {...(bulkOpen === 'selection' ? { selected: [...selected] } : {})}
          />
        )}
        {createShown && (
          <CreateConsentDialog
            opened={createOpen}
            onClose={() => setCreateOpen(false)}
            onCreated={(c) => {
              setCreateOpen(false);
              navigate(`/consents/${encodeURIComponent(c.consentId)}?authorize=1`);
            }}
          />
        )}
      </Suspense>
    ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setBulkOpen reads params and setParams (listed)
    [bulkShown, bulkOpen, selected, createShown, createOpen, navigate, params, setParams],
  );

  return (
    <Stack h="100%" gap="xs">
      <ListHeader
        title="Consents"
        range={rangeLine(count, () =>
          filtered
            ? `${formatCount(total)} of ${formatCount(cached ?? total)} cached consents match this view`
            : `${plural(total, 'consent')} in the cache`,
        )}
        rangeId="consent-range"
        actions={actions}
        exportMenu={exportMenu}
      />
      <FilterRow
        wrap="nowrap"
        clearSize="sm"
        onClear={filtered ? () => navigate({ search: view.columns ? `cols=${view.columns.join(',')}` : '' }) : undefined}
      >
        <SearchBox
          ref={searchRef}
          style={SEARCH_BOX_STYLE}
          size="sm"
          aria-label="Search consents"
          placeholder="Search any part of an e-mail, mobile, consent, arrangement, consumer or external id, or a data holder — press / to focus"
          value={boxText}
          onType={typeInBox}
        />
        <Button size="sm" variant={filtersOpen ? 'light' : 'default'} onClick={() => setFiltersOpen((o) => !o)} aria-expanded={filtersOpen}>
          Filters{filtersSet ? ` (${filtersSet})` : ''}
        </Button>
      </FilterRow>
      {chips}
      {filters}
      {selected.size ? (
        <SelectionBar
          label="Selection"
          summary={`${plural(selected.size, 'consent')} selected`}
          strong
          buttonSize="compact-sm"
          onClear={() => setSelected(new Set())}
          clearLabel="Clear selection"
          after={
            <Unavailable label="Revoke selected…" reason={canBulk.reason} style={{ marginLeft: 'auto' }}>
              <Button size="compact-sm" color="red" ml="auto" onClick={() => setBulkOpen('selection')} disabled={!canBulk.allowed}>
                Revoke selected…
              </Button>
            </Unavailable>
          }
        >
          {total > 0 && total <= MAX_BULK ? (
            <Button size="compact-sm" variant="subtle" onClick={() => void selectAllMatching()}>
              Select all {formatCount(total)} matching
            </Button>
          ) : null}
        </SelectionBar>
      ) : null}
      {count.error ? (
        <ErrorState title="The consent list could not be read" error={count.error} onRetry={() => void count.refetch()} />
      ) : null}
      {rows.error ? <ErrorState title="Some rows could not be read" error={rows.error} /> : null}
      <HighlightSearch text={search}>
        <WindowedTable<ConsentRow>
          label="Consents"
          view={search}
          {...table}
          columns={tableColumns}
          // 6 rows beyond the visible ones, not 15: a keystroke's redraw at 100k, p95 97 → 90 ms (driver's clock).
          overscan={6}
          rowId={(r) => r.consentId}
          rowLabel={consentRowLabel}
          sort={view.sort}
          onSort={(field) => setView({ sort: nextSort(view.sort, field as ConsentSortField) })}
          onOpen={(row) => navigate(`/consents/${encodeURIComponent(row.consentId)}`)}
          selection={{
            isSelected: (r) => selected.has(r.consentId),
            toggle: (i, r, range) => void toggle(i, r, range),
            headerState: selected.size === 0 ? 'none' : selected.size >= total && total > 0 ? 'all' : 'some',
            toggleAll: () => (selected.size ? setSelected(new Set()) : void selectAllMatching()),
            headerLabel: selected.size ? 'Clear the selection' : `Select all ${formatCount(total)} matching consents`,
          }}
          empty={
            count.data ? (
              filtered ? (
                <EmptyState title="No consent matches this view">Change the search or the filters, or clear them.</EmptyState>
              ) : (
                <EmptyState title="No consents in the cache yet">
                  Sync to fetch them from the intermediary (Sync now, in the status bar).
                </EmptyState>
              )
            ) : null
          }
        />
      </HighlightSearch>
      {dialogs}
    </Stack>
  );
}
