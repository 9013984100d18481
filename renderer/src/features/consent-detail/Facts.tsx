import { Anchor, Avatar, Badge, Group, Paper, SimpleGrid, Spoiler, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ConsentDetail } from '../../../../shared/ipc/contract.js';
import { visibleText } from '../../../../shared/text/visible.js';
import { Copy } from '../../ui/Copy.js';
import { enumText, initials } from '../../ui/format.js';
import { Time } from '../../ui/Time.js';
import { ScopesTable } from '../use-cases/ScopesTable.js';
import { customerLink } from '../data/customer-link.js';

/** Every field of the consent, the use case with its scopes, the data holder and the consumer. */
function Field({ label, children, copy }: { label: string; children: ReactNode; copy?: string | null | undefined }) {
  return (
    <div>
      <Text size="xs" c="dimmed" component="dt">
        {label}
      </Text>
      <Group gap={4} wrap="nowrap" component="dd" m={0}>
        {/* A value the API sent thousands of characters of folds after a few lines, whole one click away. */}
        <Spoiler maxHeight={100} showLabel={`Show all of the ${label.toLowerCase()}`} hideLabel="Show less" style={{ minWidth: 0 }}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }} span>
            {children ?? <span aria-label="none">—</span>}
          </Text>
        </Spoiler>
        {copy ? <Copy value={copy} label={`Copy ${label.toLowerCase()}`} /> : null}
      </Group>
    </div>
  );
}

const text = (v: string | null | undefined) => (v ? visibleText(v) : null);
export function Facts({ detail }: { detail: ConsentDetail }) {
  const c = detail.consent;
  const useCase = detail.useCase ?? c.useCase ?? null;
  const holder = detail.dataHolder;
  return (
    <Stack gap="md">
      <Paper withBorder p="sm">
        <Title order={3} size="h5" mb="xs">
          Consent
        </Title>
        <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="sm" component="dl" m={0}>
          <Field label="Consent id" copy={c.consentId}>
            <Text ff="monospace" size="xs" span>
              {c.consentId}
            </Text>
          </Field>
          <Field label="CDR arrangement id" copy={c.cdrArrangementId}>
            {c.cdrArrangementId ? (
              <Text ff="monospace" size="xs" span>
                {c.cdrArrangementId}
              </Text>
            ) : null}
          </Field>
          <Field label="Version">{c.version ?? null}</Field>
          <Field label="External id" copy={c.externalId}>
            {text(c.externalId)}
          </Field>
          <Field label="Created">
            <Time iso={c.created} seconds focusable />
          </Field>
          <Field label="Sharing ends">
            <Time iso={c.sharingEndDate} seconds focusable />
          </Field>
          <Field label="Revoked">{c.revoked ? <Time iso={c.revoked} seconds focusable /> : null}</Field>
          <Field label="First data collection">
            {c.firstDataCollection ? <Time iso={c.firstDataCollection} seconds focusable /> : 'Never collected'}
          </Field>
          <Field label="Last notification sent">
            {c.lastNotificationSentAt ? <Time iso={c.lastNotificationSentAt} seconds focusable /> : null}
          </Field>
          <Field label="Post-usage action">{c.postUsageAction ? enumText(c.postUsageAction) : null}</Field>
          <Field label="Direct marketing">
            {c.directMarketingAllowed === undefined || c.directMarketingAllowed === null
              ? null
              : c.directMarketingAllowed
                ? 'Allowed'
                : 'Not allowed'}
          </Field>
          <Field label="Customer IP address">{text(c.customerIPAddress)}</Field>
          <Field label="Cached">{detail.syncedAt ? <Time iso={detail.syncedAt} seconds focusable /> : null}</Field>
        </SimpleGrid>
      </Paper>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Paper withBorder p="sm">
          <Title order={3} size="h5" mb="xs">
            Consumer
          </Title>
          <SimpleGrid cols={2} spacing="sm" component="dl" m={0}>
            <Field label="E-mail" copy={c.consumerEmail}>
              {text(c.consumerEmail)}
            </Field>
            <Field label="Mobile" copy={c.consumerMobileNumber}>
              {text(c.consumerMobileNumber)}
            </Field>
            <Field label="Consumer id" copy={c.consumerId}>
              {text(c.consumerId)}
            </Field>
          </SimpleGrid>
          {c.consumerId ? (
            <Anchor component={Link} to={customerLink(c.consumerId)} size="sm" mt="xs" display="inline-block">
              All of this customer’s consents and data
            </Anchor>
          ) : null}
        </Paper>
        <Paper withBorder p="sm">
          <Title order={3} size="h5" mb="xs">
            Data holder
          </Title>
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <Avatar radius="sm" color="indigo" aria-hidden>
              {initials(holder?.brandName ?? c.dataHolderName)}
            </Avatar>
            <SimpleGrid cols={2} spacing="sm" component="dl" m={0} style={{ flex: 1 }}>
              <Field label="Name">{text(holder?.brandName ?? c.dataHolderName)}</Field>
              <Field label="Brand id" copy={holder?.dataHolderBrandId ?? c.dataHolderBrandId}>
                <Text ff="monospace" size="xs" span>
                  {holder?.dataHolderBrandId ?? c.dataHolderBrandId}
                </Text>
              </Field>
              <Field label="Logo">
                {holder?.logoUri ? (
                  <Text size="xs" span title="Remote images are not loaded: the console's content security policy allows none.">
                    {visibleText(holder.logoUri)}
                  </Text>
                ) : null}
              </Field>
            </SimpleGrid>
          </Group>
        </Paper>
      </SimpleGrid>
      <Paper withBorder p="sm">
        <Group justify="space-between" mb="xs">
          <Title order={3} size="h5">
            Use case: {useCase?.name ?? 'unknown'}
          </Title>
          {useCase?.accessFrequency ? <Badge variant="light">{enumText(useCase.accessFrequency)}</Badge> : null}
        </Group>
        {useCase?.description ? (
          <Text size="sm" mb="xs">
            {visibleText(useCase.description)}
          </Text>
        ) : null}
        <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="sm" component="dl" m={0} mb="xs">
          <Field label="Use case id" copy={useCase?.id}>
            <Text ff="monospace" size="xs" span>
              {useCase?.id}
            </Text>
          </Field>
          <Field label="Sharing durations offered">{useCase?.sharingDurations?.map(enumText).join(', ') || null}</Field>
          <Field label="Notification">{useCase?.notificationType ? enumText(useCase.notificationType) : null}</Field>
          <Field label="Historical collection">
            {useCase?.historicalCollectionPeriodInDays ? `${useCase.historicalCollectionPeriodInDays} days` : null}
          </Field>
        </SimpleGrid>
        <ScopesTable scopes={useCase?.scopes} label="Scopes" widths={['30%', '25%']} described />
        {!useCase?.scopes?.length ? (
          <Text size="sm" c="dimmed" mt={4}>
            No scopes recorded.{' '}
            <Anchor href="#/use-cases" size="sm">
              Use cases
            </Anchor>
          </Text>
        ) : null}
      </Paper>
    </Stack>
  );
}
