import { Button, Group, NumberInput, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  ALERT_KINDS,
  HOLDER_KINDS,
  KIND_PARAMS,
  KIND_TEXT,
  paramsOf,
  type AlertKind,
  type NumericParam,
} from '../../../../shared/alerts/alerts.js';
import type { AlertDelivery, AlertRuleView } from '../../../../shared/ipc/contract.js';
import { useClient } from '../../bridge/ClientContext.js';
import { ChoiceSelect } from '../../ui/ChoiceSelect.js';
import { Panel } from '../../ui/Panel.js';
import { ErrorState } from '../../ui/states.js';
import { TableHead } from '../../ui/TableHead.js';
import { Time } from '../../ui/Time.js';
import { Unavailable } from '../../ui/Unavailable.js';
import { useCan } from '../status/can.js';
import { ALERTS_KEY } from './AlertsBell.js';

const RULES_KEY = 'alerts:rules';
/** The data holder choice that watches them all. */
const ALL_HOLDERS = '*';
const SILENCES = [
  { value: '60', label: 'for 1 hour' },
  { value: '240', label: 'for 4 hours' },
  { value: '1440', label: 'for 1 day' },
  { value: '10080', label: 'for 7 days' },
];

/**
 * Settings → Alerts (issue 38): the rules the console evaluates after every sync and every five
 * minutes. Compliance and admins add and remove them; staff silence one for a while, with a reason.
 */
/** "; 1 could not be checked: …" when a rule's check failed (the others were checked). */
const failedText = (done: readonly { outcome: string; summary: string | null }[]) => {
  const failed = done.filter((t) => t.outcome === 'failed');
  return failed.length ? `; ${failed.length} could not be checked: ${failed.map((t) => t.summary ?? '').join('; ')}` : '';
};

export function AlertRules() {
  const client = useClient();
  const queries = useQueryClient();
  const rules = useQuery({ queryKey: [RULES_KEY], queryFn: () => client.alertsRules({}) });
  const canManage = useCan('alerts:addRule');
  const canSilence = useCan('alerts:silence');
  const changed = () => {
    void queries.invalidateQueries({ queryKey: [RULES_KEY] });
    void queries.invalidateQueries({ queryKey: [ALERTS_KEY] });
  };
  const remove = useMutation({ mutationFn: (id: string) => client.alertsRemoveRule({ id }), onSuccess: changed });
  const evaluate = useMutation({ mutationFn: () => client.alertsEvaluate({}), onSuccess: changed });
  return (
    <Panel
      title="Alerts"
      description="Rules the console checks after every sync and every five minutes; what fires shows under the bell, and is in the audit log."
      aside={
        <Unavailable label="Check the rules now" reason={canManage.reason}>
          <Button size="xs" variant="default" onClick={() => evaluate.mutate()} loading={evaluate.isPending} disabled={!canManage.allowed}>
            Check the rules now
          </Button>
        </Unavailable>
      }
    >
      <span id="alerts" />
      {rules.error ? <ErrorState title="The alert rules could not be read" error={rules.error} /> : null}
      {evaluate.data ? (
        <Text size="sm" role="status" mb="xs">
          {evaluate.data.length === 0
            ? 'No rule to check.'
            : `Checked ${evaluate.data.length} rule${evaluate.data.length === 1 ? '' : 's'}: ${evaluate.data.filter((t) => t.outcome === 'opened').length} started firing, ${evaluate.data.filter((t) => t.outcome === 'resolved').length} resolved${failedText(evaluate.data)}.`}
        </Text>
      ) : null}
      {rules.data?.length ? (
        <Table fz="sm" withTableBorder aria-label="Alert rules" mb="sm">
          <TableHead columns={['Rule', 'Added', 'Silence', 'Actions']} />
          <Table.Tbody>
            {rules.data.map((r) => (
              <RuleRow
                key={r.id}
                rule={r}
                canSilence={canSilence.allowed}
                canRemove={canManage.allowed}
                onRemove={() => remove.mutate(r.id)}
                onChanged={changed}
              />
            ))}
          </Table.Tbody>
        </Table>
      ) : rules.data ? (
        <Text size="sm" c="dimmed" mb="sm">
          No alert rule yet.
        </Text>
      ) : null}
      {canManage.allowed ? (
        <AddRule onAdded={changed} />
      ) : (
        <Text size="sm" c="dimmed">
          {canManage.reason}
        </Text>
      )}
      <AlertDeliveryForm />
    </Panel>
  );
}

function RuleRow({
  rule: r,
  canSilence,
  canRemove,
  onRemove,
  onChanged,
}: {
  rule: AlertRuleView;
  canSilence: boolean;
  canRemove: boolean;
  onRemove(): void;
  onChanged(): void;
}) {
  const client = useClient();
  const [minutes, setMinutes] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const silence = useMutation({
    mutationFn: (input: { minutes: number | null; reason: string | null }) => client.alertsSilence({ id: r.id, ...input }),
    onSuccess: () => {
      setMinutes(null);
      setReason('');
      onChanged();
    },
  });
  return (
    <Table.Tr>
      <Table.Td>{r.text}</Table.Td>
      <Table.Td>
        <Time iso={r.createdAt} dateOnly /> by {r.createdBy}
      </Table.Td>
      <Table.Td>
        {r.silenced ? (
          <Stack gap={2}>
            <Text size="sm">
              Until <Time iso={r.silencedUntil} />: {r.silenceReason} ({r.silencedBy})
            </Text>
            <Button
              size="compact-xs"
              variant="default"
              disabled={!canSilence}
              onClick={() => silence.mutate({ minutes: null, reason: null })}
            >
              Lift the silence
            </Button>
          </Stack>
        ) : (
          <Group gap={4} wrap="nowrap" align="flex-end">
            <Select
              size="xs"
              w={120}
              aria-label={`Silence ${r.text}`}
              placeholder="Silence…"
              data={SILENCES}
              value={minutes}
              onChange={setMinutes}
              disabled={!canSilence}
            />
            {minutes ? (
              <>
                <TextInput
                  size="xs"
                  w={180}
                  aria-label="Why it is silenced"
                  placeholder="Why (kept in the audit log)"
                  value={reason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                />
                <Button
                  size="compact-sm"
                  disabled={!reason.trim()}
                  onClick={() => silence.mutate({ minutes: Number(minutes), reason: reason.trim() })}
                >
                  Silence
                </Button>
              </>
            ) : null}
          </Group>
        )}
        {silence.error ? (
          <Text size="xs" c="red">
            {silence.error.message}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        <Button
          size="compact-xs"
          color="red"
          variant="subtle"
          disabled={!canRemove}
          onClick={onRemove}
          aria-label={`Remove the rule: ${r.text}`}
        >
          Remove
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function AddRule({ onAdded }: { onAdded(): void }) {
  const client = useClient();
  const [kind, setKind] = useState<AlertKind>('webhook-failures');
  const [values, setValues] = useState<{ [K in NumericParam]?: number }>({});
  const [holder, setHolder] = useState<string>(ALL_HOLDERS);
  const specs = Object.entries(KIND_PARAMS[kind]) as [NumericParam, { min: number; max: number; default: number; label: string }][];
  const checked = paramsOf(kind, values);
  const watchesHolder = HOLDER_KINDS.includes(kind);
  // The data holders of the cached consents (the Consents filter's list), for a rule that watches one.
  const options = useQuery({
    queryKey: ['consents:options'],
    queryFn: () => client.consentsOptions({}),
    staleTime: 60_000,
    enabled: watchesHolder,
  });
  const add = useMutation({
    mutationFn: () =>
      client.alertsAddRule({
        kind,
        params: checked.params ?? {},
        ...(watchesHolder && holder !== ALL_HOLDERS ? { dataHolderBrandId: holder } : {}),
        enabled: true,
      }),
    onSuccess: () => {
      setValues({});
      setHolder(ALL_HOLDERS);
      onAdded();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (checked.problem === null) add.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Add an alert rule">
      <Group align="flex-end" gap="xs">
        <ChoiceSelect
          label="Alert when"
          size="xs"
          w={320}
          data={ALERT_KINDS.map((value) => ({ value, label: KIND_TEXT[value] }))}
          value={kind}
          onChange={(k) => {
            setKind(k);
            setValues({});
          }}
        />
        {watchesHolder ? (
          <ChoiceSelect
            label="Of the consents at"
            size="xs"
            w={240}
            searchable
            data={[
              { value: ALL_HOLDERS, label: 'Every data holder' },
              ...(options.data?.dataHolders ?? []).map((h) => ({ value: h.id, label: h.name ?? h.id })),
            ]}
            value={holder}
            onChange={setHolder}
          />
        ) : null}
        {specs.map(([key, spec]) => (
          <NumberInput
            key={key}
            label={spec.label}
            size="xs"
            w={200}
            min={spec.min}
            max={spec.max}
            allowDecimal={false}
            value={values[key] ?? spec.default}
            onChange={(v) => setValues((old) => ({ ...old, [key]: typeof v === 'number' ? v : Number(v) }))}
          />
        ))}
        <Button size="xs" type="submit" loading={add.isPending} disabled={checked.problem !== null}>
          Add rule
        </Button>
      </Group>
      {checked.problem ? (
        <Text size="xs" c="red" mt={4}>
          {checked.problem}
        </Text>
      ) : null}
      {add.error ? (
        <Text size="xs" c="red" mt={4}>
          {add.error.message}
        </Text>
      ) : null}
    </form>
  );
}

/**
 * Where alerts go besides the bell (an admin's): e-mail through an SMTP server (its password kept
 * in the vault, never shown again), a webhook signed the Standard Webhooks way, and the console's
 * address for the messages' links; a test each way (compliance and admins).
 */
export function AlertDeliveryForm() {
  const client = useClient();
  const delivery = useQuery({ queryKey: ['alerts:delivery'], queryFn: () => client.alertsDelivery({}) });
  const canSet = useCan('alerts:setDelivery');
  const canTest = useCan('alerts:testDelivery');
  const d = delivery.data;
  if (!d) return delivery.error ? <ErrorState title="Where alerts go could not be read" error={delivery.error} /> : null;
  return <DeliveryFields key={JSON.stringify(d)} current={d} canSet={canSet.allowed} setReason={canSet.reason} canTest={canTest.allowed} />;
}

function DeliveryFields({
  current,
  canSet,
  setReason,
  canTest,
}: {
  current: AlertDelivery;
  canSet: boolean;
  setReason: string | null;
  canTest: boolean;
}) {
  const client = useClient();
  const queries = useQueryClient();
  const [smtpUrl, setSmtpUrl] = useState(current.email?.smtpUrl ?? '');
  const [from, setFrom] = useState(current.email?.from ?? '');
  const [to, setTo] = useState(current.email?.to.join(', ') ?? '');
  const [hook, setHook] = useState(current.webhook?.url ?? '');
  const [secret, setSecret] = useState('');
  const [consoleUrl, setConsoleUrl] = useState(current.consoleUrl ?? '');
  const save = useMutation({
    mutationFn: () =>
      client.alertsSetDelivery({
        email: smtpUrl.trim()
          ? {
              smtpUrl: smtpUrl.trim(),
              from: from.trim(),
              to: to
                .split(/[,\s]+/)
                .map((a) => a.trim())
                .filter(Boolean),
            }
          : null,
        webhook: hook.trim() ? { url: hook.trim(), ...(secret.trim() ? { secret: secret.trim() } : {}) } : null,
        consoleUrl: consoleUrl.trim() || null,
      }),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['alerts:delivery'] }),
  });
  const test = useMutation({ mutationFn: (way: 'email' | 'webhook') => client.alertsTestDelivery({ way }) });
  return (
    <form
      aria-label="Where alerts go"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="xs" mt="md">
        <Text fw={600} size="sm">
          Where alerts go, besides the bell
        </Text>
        <Group grow align="flex-start">
          <TextInput
            size="xs"
            label="SMTP server"
            description={
              current.email?.hasPassword
                ? 'A password is kept in the vault.'
                : 'smtp://user:password@host:587 (the password goes to the vault)'
            }
            value={smtpUrl}
            onChange={(e) => setSmtpUrl(e.currentTarget.value)}
            disabled={!canSet}
          />
          <TextInput
            size="xs"
            label="From"
            description="The sender’s address"
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            disabled={!canSet}
          />
          <TextInput
            size="xs"
            label="To"
            description="Addresses, separated by commas"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            disabled={!canSet}
          />
        </Group>
        <Group grow align="flex-start">
          <TextInput
            size="xs"
            label="Webhook URL"
            description="A JSON POST, Slack-compatible"
            value={hook}
            onChange={(e) => setHook(e.currentTarget.value)}
            disabled={!canSet}
          />
          <TextInput
            size="xs"
            label="Signing secret"
            description={current.webhook?.hasSecret ? 'One is kept; type a new one to replace it.' : 'whsec_… (Standard Webhooks)'}
            value={secret}
            onChange={(e) => setSecret(e.currentTarget.value)}
            disabled={!canSet}
            autoComplete="off"
          />
          <TextInput
            size="xs"
            label="The console’s address, for links"
            description="So a message links to the screen concerned"
            value={consoleUrl}
            onChange={(e) => setConsoleUrl(e.currentTarget.value)}
            disabled={!canSet}
          />
        </Group>
        <Group gap="xs">
          <Unavailable label="Save where alerts go" reason={setReason}>
            <Button size="xs" type="submit" loading={save.isPending} disabled={!canSet}>
              Save where alerts go
            </Button>
          </Unavailable>
          <Button
            size="xs"
            variant="default"
            disabled={!canTest || !current.email}
            loading={test.isPending && test.variables === 'email'}
            onClick={() => test.mutate('email')}
          >
            Send a test e-mail
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={!canTest || !current.webhook}
            loading={test.isPending && test.variables === 'webhook'}
            onClick={() => test.mutate('webhook')}
          >
            Send a test webhook
          </Button>
        </Group>
        {save.error ? (
          <Text size="xs" c="red">
            {save.error.message}
          </Text>
        ) : null}
        {test.data ? (
          <Text size="xs" role="status" {...(test.data.ok ? {} : { c: 'red' })}>
            {test.data.ok ? 'Sent: ' : 'Not sent: '}
            {test.data.detail}
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}
