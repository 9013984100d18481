import { Alert, Button, Group, Pagination, Select, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useClient } from '../bridge/ClientContext.js';
import { formatCount } from '../format.js';
import { PAGE_SIZES, useConsentsView } from '../stores/consents-view.js';
import { useSession } from '../stores/session.js';
import { ConsentTable } from './ConsentTable.js';

/** The first screen: consents from the local cache, paged and sorted by main. */
export function ConsentsScreen() {
  const client = useClient();
  const { page, pageSize, sort, setPage, setPageSize, toggleSort } = useConsentsView();
  const syncing = useSession((s) => s.syncProgress !== null);
  const input = { filter: {}, offset: (page - 1) * pageSize, limit: pageSize, sort };
  const list = useQuery({
    queryKey: ['consents:list', input],
    queryFn: () => client.consentsList(input),
    placeholderData: keepPreviousData,
  });
  const sync = useMutation({ mutationFn: () => client.syncStart({}) });

  const count = useQuery({ queryKey: ['consents:count', {}], queryFn: () => client.consentsCount({ filter: {} }) });
  const total = count.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);

  return (
    <Stack h="100%" gap="sm">
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Title order={2} size="h3">
            Consents
          </Title>
          <Text size="sm" c="dimmed" data-testid="consent-range">
            {list.data
              ? `Showing ${formatCount(first)}–${formatCount(last)} of ${formatCount(total)} cached consents`
              : 'Loading the cache…'}
          </Text>
        </div>
        <Button size="sm" variant="default" onClick={() => sync.mutate()} loading={sync.isPending || syncing}>
          Sync now
        </Button>
      </Group>
      {list.error ? (
        <Alert color="red" title="The consent list could not be read">
          {list.error.message}
        </Alert>
      ) : null}
      {sync.error ? (
        <Alert color="red" title="Sync failed" withCloseButton onClose={() => sync.reset()}>
          {sync.error.message}
        </Alert>
      ) : null}
      <ConsentTable rows={list.data?.rows ?? []} sort={sort} onSort={toggleSort} busy={list.isFetching && !list.data} />
      <Group justify="space-between">
        <Pagination
          total={pageCount}
          value={Math.min(page, pageCount)}
          onChange={setPage}
          size="sm"
          withEdges
          aria-label="Consent pages"
          getControlProps={(control) => ({ 'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page` })}
          getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
        />
        <Group gap={8} wrap="nowrap">
          <Text component="label" htmlFor="consents-page-size" size="sm">
            Rows per page
          </Text>
          <Select
            id="consents-page-size"
            size="xs"
            w={84}
            data={PAGE_SIZES.map(String)}
            value={String(pageSize)}
            onChange={(v) => v && setPageSize(Number(v))}
            allowDeselect={false}
          />
        </Group>
      </Group>
    </Stack>
  );
}
