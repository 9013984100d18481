import { Badge, Button, Group, Select, Stack, Table, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { diffVersions, valueText } from '../../../../shared/consents/diff.js';
import { useClient } from '../../bridge/ClientContext.js';
import { enumText, formatLocalDateTime } from '../../ui/format.js';
import { ScreenHeader } from '../../ui/ScreenHeader.js';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.js';
import { TableHead } from '../../ui/TableHead.js';
import { Time } from '../../ui/Time.js';
import { RecordSource } from './RecordSource.js';
import { ExternalLink, ProductTerms, ShapeBadge, type Note } from './terms.js';

/**
 * One banking product in the normalised Data API 2.0.0 form, whatever shape its data holder
 * served (badge and notes say how it was mapped), the payload as sent one tab away, and what
 * changed between any two versions the cache has seen.
 */
export function ProductDetailScreen() {
  const { recordId = '' } = useParams();
  const client = useClient();
  const q = useQuery({ queryKey: ['products:get', recordId], queryFn: () => client.productsGet({ recordId }) });
  const [tab, setTab] = useState<string | null>('terms');
  if (q.error) return <ErrorState title="The product could not be read" error={q.error} />;
  if (!q.data) return <LoadingState label="Reading the product from the cache…" />;
  const p = q.data;
  const r = p.record;
  const notes = p.notes as unknown as Note[];
  const s = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return (
    <Stack gap="sm">
      <ScreenHeader
        back={{ to: '/products', label: 'Products' }}
        title={s(r.name) ?? s(r.productId)}
        description={
          <>
            {s(r.brandName) ?? s(r.brand)} · {enumText(s(r.productCategory))} · fetched <Time iso={p.fetchedAt} focusable />
          </>
        }
        wrap
        actions={
          <>
            <ShapeBadge shape={p.shape} />
            {notes.length ? (
              <Badge variant="outline" color="gray">
                {notes.length} normaliser note{notes.length === 1 ? '' : 's'}
              </Badge>
            ) : null}
          </>
        }
      />
      {s(r.description) ? <Text size="sm">{s(r.description)}</Text> : null}
      <Group gap="md">
        {s(r.effectiveFrom) ? (
          <Text size="xs">
            Effective from <Time iso={s(r.effectiveFrom)} dateOnly />
            {s(r.effectiveTo) ? (
              <>
                {' '}
                to <Time iso={s(r.effectiveTo)} dateOnly />
              </>
            ) : null}
          </Text>
        ) : null}
        {s(r.lastUpdated) ? (
          <Text size="xs">
            Last updated by the data holder <Time iso={s(r.lastUpdated)} />
          </Text>
        ) : null}
        {s(r.applicationUri) ? <ExternalLink href={s(r.applicationUri)!}>Apply</ExternalLink> : null}
        {r.isTailored === true ? <Badge variant="light">Tailored</Badge> : null}
      </Group>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="terms">Terms</Tabs.Tab>
          <Tabs.Tab value="source">Normalised and as sent</Tabs.Tab>
          <Tabs.Tab value="versions">Versions ({p.versions.length})</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="terms" pt="sm">
          <ProductTerms record={r} notes={notes} />
        </Tabs.Panel>
        <Tabs.Panel value="source" pt="sm">
          <RecordSource record={r} raw={p.raw} notes={notes} shape={p.shape} />
        </Tabs.Panel>
        <Tabs.Panel value="versions" pt="sm">
          <Versions recordId={p.recordId} versions={p.versions} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function Versions({ recordId, versions }: { recordId: string; versions: { seenAt: string; hash: string }[] }) {
  const client = useClient();
  const options = versions.map((v, i) => ({ value: v.hash, label: `Version ${i + 1}, first seen ${formatLocalDateTime(v.seenAt)}` }));
  const [from, setFrom] = useState<string | null>(versions.at(-2)?.hash ?? null);
  const [to, setTo] = useState<string | null>(versions.at(-1)?.hash ?? null);
  const pair = useQuery({
    queryKey: ['products:versions', recordId, from, to],
    queryFn: () => client.productsVersions({ recordId, hashes: [from!, to!] }),
    enabled: !!from && !!to && from !== to,
  });
  if (versions.length < 2)
    return (
      <EmptyState title="One version so far">
        The cache keeps every version of this product a sync sees; when its data holder changes it, the change shows here.
      </EmptyState>
    );
  const a = pair.data?.find((v) => v.hash === from);
  const b = pair.data?.find((v) => v.hash === to);
  const changes = a && b ? diffVersions(a.record, b.record) : [];
  return (
    <Stack gap="sm">
      <Group align="flex-end">
        <Select label="From" size="xs" w={320} data={options} value={from} onChange={setFrom} allowDeselect={false} />
        <Select label="To" size="xs" w={320} data={options} value={to} onChange={setTo} allowDeselect={false} />
        <Button size="xs" variant="default" onClick={() => (setFrom(to), setTo(from))}>
          Swap
        </Button>
      </Group>
      {pair.error ? <ErrorState title="The versions could not be read" error={pair.error} /> : null}
      {a && b ? (
        changes.length ? (
          <Table fz="sm" withTableBorder aria-label="What changed between the two versions">
            <TableHead columns={['Field', 'Change', 'Before', 'After']} />
            <Table.Tbody>
              {changes.map((c) => (
                <Table.Tr key={c.path} data-testid="version-change">
                  <Table.Td>
                    <code>{c.path}</code>
                  </Table.Td>
                  <Table.Td>{c.kind}</Table.Td>
                  <Table.Td>{valueText(c.before)}</Table.Td>
                  <Table.Td>{valueText(c.after)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm">No difference in the normalised form (the payloads differ only in ways the normaliser evens out).</Text>
        )
      ) : from === to ? (
        <Text size="sm">Choose two different versions.</Text>
      ) : null}
    </Stack>
  );
}
