import { Anchor, Breadcrumbs, Button, Group, Menu, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { statusSentence } from '../../../../shared/consents/status.js';
import { IpcError } from '../../../../shared/ipc/errors.js';
import { useClient } from '../../bridge/ClientContext.js';
import { useExport } from '../../ui/export.js';
import { enumText, formatCount, formatLocalDate, localZone } from '../../ui/format.js';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.js';
import { StatusBadge } from '../../ui/StatusBadge.js';
import { TableHead } from '../../ui/TableHead.js';
import { Time } from '../../ui/Time.js';
import { AuthorizeDialog, RevokeDialog, UpdateDialog } from '../consent-actions/index.js';
import { useActionsAvailable } from '../status/app-status.js';
import { useActionOnceChecked, useCan, type Can } from '../status/can.js';
import { Unavailable } from '../../ui/Unavailable.js';
import { Facts } from './Facts.js';
import { Health } from './Health.js';
import { Timeline } from './Timeline.js';
import { VersionHistory } from './VersionHistory.js';
import { ComplaintsList } from '../complaints/ComplaintsList.js';

/**
 * One consent's whole story, from the cache: every field, the status in words, its versions with
 * what changed, one timeline of events, staff actions and retention, its cached data — and what
 * can be done to it (online only): revoke, update, extend or authorise, and the evidence pack.
 */
type Tab = 'overview' | 'versions' | 'timeline' | 'data' | 'complaints';
type Dialog = 'revoke' | 'update' | 'authorize' | null;

export function ConsentDetailScreen() {
  const { consentId = '' } = useParams();
  const client = useClient();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab = (params.get('tab') as Tab | null) ?? 'overview';
  const setTab = (t: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (t && t !== 'overview') next.set('tab', t);
        else next.delete('tab');
        next.delete('authorize');
        return next;
      },
      { replace: true },
    );
  const detail = useQuery({ queryKey: ['consents:get', consentId], queryFn: () => client.consentsGet({ consentId }), retry: false });
  const actions = useActionsAvailable();
  // Each action as the role and the connection allow (the role's reason first: it does not pass).
  const can = {
    revoke: useCan('consents:revoke', { online: true }),
    update: useCan('consents:update', { online: true }),
    authorize: useCan('authorization:start', { online: true }),
    evidence: useCan('evidence:export'),
  };
  const [dialog, setDialog] = useState<Dialog>(params.get('authorize') ? 'authorize' : null);
  // A click while the role or the connection is still being checked opens the dialog once it passes.
  const open = useActionOnceChecked<Exclude<Dialog, null>>({ revoke: can.revoke, update: can.update, authorize: can.authorize }, setDialog);
  const evidence = useExport(() => client.evidenceExport({ consentId, timeZone: localZone() }));
  const refreshData = useMutation({ mutationFn: () => client.syncStart({ consentIds: [consentId] }) });

  if (detail.isPending) return <LoadingState label="Reading the consent from the cache…" />;
  if (detail.error) {
    const notFound = detail.error instanceof IpcError && detail.error.code === 'NOT_FOUND';
    return notFound ? (
      <EmptyState
        title="This consent is not in the cache"
        action={
          <Button variant="default" onClick={() => navigate('/consents')}>
            Back to consents
          </Button>
        }
      >
        {consentId} — sync to fetch it, or check the id.
      </EmptyState>
    ) : (
      <ErrorState title="The consent could not be read" error={detail.error} onRetry={() => void detail.refetch()} />
    );
  }
  const d = detail.data;
  const c = d.consent;
  const useCase = d.useCase ?? c.useCase ?? null;
  const sentence = statusSentence(c, new Date(), formatLocalDate);
  const canRevoke = c.status === 'ACTIVE';
  const canAuthorize = c.status === 'ACTIVE' || c.status === 'REQUESTED';
  const onceOff = useCase?.accessFrequency === 'ONCE_OFF';
  const actionButton = (label: string, which: Exclude<Dialog, null>, allowed: Can, own: string | null, color?: string) => {
    const reason = allowed.reason ?? own;
    // Still being checked: it looks unavailable, yet a click is kept (useActionOnceChecked).
    const checking = !own && allowed.checking;
    return (
      <Unavailable label={label} reason={reason}>
        <Button
          size="xs"
          variant={color ? 'light' : 'default'}
          color={color ?? 'indigo'}
          disabled={!!reason && !checking}
          {...(checking ? { 'data-disabled': true, 'aria-disabled': true } : {})}
          onClick={() => open(which)}
        >
          {label}
        </Button>
      </Unavailable>
    );
  };

  return (
    <Stack gap="sm" pb="xl">
      <Breadcrumbs>
        <Anchor component={Link} to="/consents" size="sm">
          Consents
        </Anchor>
        <Text size="sm" ff="monospace">
          {c.consentId}
        </Text>
      </Breadcrumbs>
      {/* At 1024 px the actions go under the title rather than off the page's edge. */}
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="sm">
            <Title order={2} size="h3">
              {c.consumerEmail ?? c.consumerId ?? 'Consent'}
            </Title>
            <StatusBadge status={c.status} size="md" />
          </Group>
          <Text size="sm" data-testid="status-sentence">
            {sentence}
          </Text>
          <Text size="xs" c="dimmed">
            {c.dataHolderName ?? 'Unknown data holder'} · {useCase?.name ?? 'unknown use case'} · {enumText(useCase?.accessFrequency)}
          </Text>
        </Stack>
        <Group gap="xs">
          {actionButton(
            'Revoke…',
            'revoke',
            can.revoke,
            canRevoke ? null : `Only an ACTIVE consent can be revoked; this one is ${c.status ?? 'without status'}.`,
            'red',
          )}
          {actionButton('Update…', 'update', can.update, null)}
          {actionButton(
            c.status === 'REQUESTED' ? 'Authorise…' : 'Extend…',
            'authorize',
            can.authorize,
            !canAuthorize
              ? `Only an ACTIVE consent can be extended (or a REQUESTED one authorised); this one is ${c.status ?? 'without status'}.`
              : onceOff && c.status === 'ACTIVE'
                ? 'A once-off consent cannot be extended.'
                : null,
          )}
          {!can.evidence.allowed ? (
            <Unavailable label="Evidence pack" reason={can.evidence.reason}>
              <Button size="xs" variant="default" disabled>
                Evidence pack
              </Button>
            </Unavailable>
          ) : (
            <Menu position="bottom-end">
              <Menu.Target>
                <Button size="xs" variant="default" loading={evidence.busy}>
                  Evidence pack
                </Button>
              </Menu.Target>
              <Menu.Dropdown maw={320}>
                <Menu.Label>For an auditor (CDR rules 9.3 and 1.18)</Menu.Label>
                <Menu.Item onClick={() => void evidence.run('json')}>Export evidence pack (ZIP)</Menu.Item>
                <Text size="xs" c="dimmed" px="sm" pb="xs">
                  Every cached version, events, staff actions with the audit chain’s check, retention records, a printable summary and a
                  SHA-256 manifest. The export is audited.
                </Text>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="overview">Overview</Tabs.Tab>
          <Tabs.Tab value="timeline">Timeline ({formatCount(d.events.length + d.audit.length + d.retention.length)})</Tabs.Tab>
          <Tabs.Tab value="versions">Versions ({d.versions.length})</Tabs.Tab>
          <Tabs.Tab value="data">Cached data ({formatCount(d.data.reduce((n, k) => n + k.count, 0))})</Tabs.Tab>
          <Tabs.Tab value="complaints">Complaints</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="complaints" pt="sm">
          <ComplaintsList filter={{ consentId }} about={{ consentId, consumerId: d.consent.consumerId ?? null }} />
        </Tabs.Panel>
        <Tabs.Panel value="overview" pt="sm">
          <Stack gap="md">
            <Health detail={d} onSee={setTab} />
            <Facts detail={d} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="timeline" pt="sm">
          <Timeline detail={d} />
        </Tabs.Panel>
        <Tabs.Panel value="versions" pt="sm">
          <VersionHistory versions={d.versions} />
        </Tabs.Panel>
        <Tabs.Panel value="data" pt="sm">
          <Stack gap="sm">
            {d.retention.length ? (
              <Text size="sm">
                Retention {d.retention.at(-1)!.action} this consent’s data <Time iso={d.retention.at(-1)!.at} focusable />:{' '}
                {d.retention.at(-1)!.reason}
              </Text>
            ) : null}
            {d.data.length === 0 ? (
              <EmptyState title="No Data API records of this consent are cached">
                {c.status === 'ACTIVE' ? 'Fetch them with “Refresh its data”.' : 'Data is only fetched for ACTIVE consents.'}
              </EmptyState>
            ) : (
              <Table withTableBorder fz="sm" maw={640} aria-label="Cached data per kind">
                <TableHead columns={['Kind', 'Records', 'Last fetched']} />
                <Table.Tbody>
                  {d.data.map((k) => (
                    <Table.Tr key={k.kind}>
                      <Table.Td>
                        <Anchor component={Link} to={`/data?consent=${encodeURIComponent(c.consentId)}&view=${k.kind}`} size="sm">
                          {enumText(k.kind.replace(/([A-Z])/g, '_$1'))}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{formatCount(k.count)}</Table.Td>
                      <Table.Td>
                        <Time iso={k.fetchedAt} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Group gap="sm">
              <Anchor component={Link} to={`/data?consent=${encodeURIComponent(c.consentId)}`} size="sm">
                Browse this consent’s data
              </Anchor>
              <Button
                size="xs"
                variant="default"
                onClick={() => refreshData.mutate()}
                loading={refreshData.isPending}
                disabled={!actions.available || c.status !== 'ACTIVE'}
              >
                Refresh its data
              </Button>
            </Group>
            {refreshData.error ? <ErrorState title="The data was not refreshed" error={refreshData.error} /> : null}
          </Stack>
        </Tabs.Panel>
      </Tabs>
      {dialog === 'revoke' ? <RevokeDialog consent={c} opened onClose={() => setDialog(null)} /> : null}
      {dialog === 'update' ? <UpdateDialog consent={c} opened onClose={() => setDialog(null)} /> : null}
      {dialog === 'authorize' ? (
        <AuthorizeDialog consent={c} sharingDurations={useCase?.sharingDurations} opened onClose={() => setDialog(null)} />
      ) : null}
    </Stack>
  );
}
