import { Avatar, Badge, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { visibleText } from '../../../../shared/text/visible.js';
import { useClient } from '../../bridge/ClientContext.js';
import { enumText, initials, plural } from '../../ui/format.js';
import { ScreenHeader } from '../../ui/ScreenHeader.js';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.js';
import { ScopesTable } from './ScopesTable.js';

/**
 * The use cases of the software product, from the cache: what each asks the consumer for (scopes
 * with purpose and claims), how often and for how long, which data holders, features, whether it
 * is active, anonymisation details. A toggle puts the combined-scopes view (the clusters the CX
 * standards let a data holder show together) beside the separate one: which scopes merge, and how
 * many fewer entries the consumer reads.
 */
function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children ?? '—'}</Text>
    </div>
  );
}

export function UseCasesScreen() {
  const client = useClient();
  const reference = useQuery({ queryKey: ['reference:list'], queryFn: () => client.referenceList({}) });
  const [mode, setMode] = useState<'separate' | 'both'>('separate');
  if (reference.isPending) return <LoadingState label="Reading the use cases from the cache…" />;
  if (reference.error)
    return <ErrorState title="The use cases could not be read" error={reference.error} onRetry={() => void reference.refetch()} />;
  const { useCases, combinedUseCases } = reference.data;
  const combinedById = new Map(combinedUseCases.map((u) => [u.id, u]));
  return (
    <Stack gap="md" pb="xl">
      <ScreenHeader
        title="Use cases"
        description={`${plural(useCases.length, 'use case')} of the software product, as last synced.`}
        wrap
        actions={
          <SegmentedControl
            size="xs"
            aria-label="Scopes shown"
            value={mode}
            onChange={(v) => setMode(v as 'separate' | 'both')}
            data={[
              { value: 'separate', label: 'Separate scopes' },
              { value: 'both', label: 'Separate and combined' },
            ]}
            disabled={combinedUseCases.length === 0}
          />
        }
      />
      {useCases.length === 0 ? (
        <EmptyState title="No use cases in the cache yet">Sync to fetch them from the intermediary.</EmptyState>
      ) : null}
      {useCases.map((u) => {
        const combined = combinedById.get(u.id);
        const fewer = (u.scopes?.length ?? 0) - (combined?.scopes?.length ?? 0);
        return (
          <Paper key={u.id} withBorder p="sm" component="article" aria-label={`Use case ${u.name ?? u.id}`} data-testid="use-case">
            <Group justify="space-between" mb={4}>
              <Group gap="xs">
                <Title order={3} size="h4">
                  {u.name ?? u.id}
                </Title>
                <Badge color={u.active === false ? 'gray' : 'teal'} variant="light">
                  {u.active === false ? 'Inactive' : 'Active'}
                </Badge>
                {u.accessFrequency ? <Badge variant="light">{enumText(u.accessFrequency)}</Badge> : null}
              </Group>
              <Text size="xs" c="dimmed" ff="monospace">
                {u.id}
              </Text>
            </Group>
            {u.description ? (
              <Text size="sm" mb="xs">
                {visibleText(u.description)}
              </Text>
            ) : null}
            <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="sm" mb="xs">
              <Fact label="Sharing durations">{u.sharingDurations?.map(enumText).join(', ')}</Fact>
              <Fact label="Notification">{u.notificationType ? enumText(u.notificationType) : null}</Fact>
              <Fact label="Historical collection">
                {u.historicalCollectionPeriodInDays ? `${u.historicalCollectionPeriodInDays} days` : null}
              </Fact>
              <Fact label="Industries · consumers">
                {[u.industries?.map(enumText).join(', '), u.consumerType ? enumText(u.consumerType) : null].filter(Boolean).join(' · ') ||
                  null}
              </Fact>
              <Fact label="Features">{u.features?.length ? u.features.map(enumText).join(', ') : null}</Fact>
              <Fact label="Anonymisation">{u.anonymisationDetails ? visibleText(u.anonymisationDetails) : null}</Fact>
            </SimpleGrid>
            <Text size="xs" c="dimmed" mb={4}>
              Data holders ({u.dataHolders?.length ?? 0})
            </Text>
            <Group gap={6} mb="sm">
              {(u.dataHolders ?? []).map((h) => (
                <Tooltip
                  key={h.dataHolderBrandId}
                  label={`${h.brandName ?? h.dataHolderBrandId} — brand ${h.dataHolderBrandId}${h.logoUri ? `; logo ${h.logoUri}` : ''}`}
                  multiline
                  w={320}
                >
                  <Group gap={4} wrap="nowrap" tabIndex={0}>
                    <Avatar size="sm" radius="sm" color="indigo" aria-hidden>
                      {initials(h.brandName)}
                    </Avatar>
                    <Text size="sm">{h.brandName ?? h.dataHolderBrandId}</Text>
                  </Group>
                </Tooltip>
              ))}
            </Group>
            {mode === 'both' && combined ? (
              <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm">
                <div>
                  <Text size="sm" fw={600} mb={4}>
                    Separate: {plural(u.scopes?.length ?? 0, 'entry', 'entries')}
                  </Text>
                  <ScopesTable scopes={u.scopes} label={`Scopes of ${u.name ?? u.id}, separate`} />
                </div>
                <div>
                  <Text size="sm" fw={600} mb={4}>
                    Combined: {plural(combined.scopes?.length ?? 0, 'entry', 'entries')}
                    {fewer > 0 ? ` — ${plural(fewer, 'entry', 'entries')} fewer for the consumer to read` : ' — nothing merges'}
                  </Text>
                  <ScopesTable scopes={combined.scopes} label={`Scopes of ${u.name ?? u.id}, combined`} />
                </div>
              </SimpleGrid>
            ) : (
              <ScopesTable scopes={u.scopes} label={`Scopes of ${u.name ?? u.id}`} />
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}
