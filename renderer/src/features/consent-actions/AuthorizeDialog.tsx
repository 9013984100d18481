import { Alert, Anchor, Button, Code, Group, List, Modal, Radio, Stack, Stepper, Table, Text, Textarea } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { addDays, addMonths, addYears } from 'date-fns';
import { instantsOfDays } from '../../../../shared/time/periods.js';
import { inZone, utcIso } from '../../../../shared/time/zone.js';
import { useState } from 'react';
import type { Consent } from '../../../../shared/schemas/consent.js';
import { useClient } from '../../bridge/ClientContext.js';
import { Copy } from '../../ui/Copy.js';
import { DialogFooter } from '../../ui/DialogFooter.js';
import { bindText, MONOSPACE_INPUT } from '../../ui/fields.js';
import { enumText, formatLocalDateTime } from '../../ui/format.js';
import { consentName } from '../../../../shared/consents/status.js';
import { Time } from '../../ui/Time.js';
import { useAppStatus } from '../status/app-status.js';
import { ink } from '../../ui/ink.js';

/**
 * Authorising a consent at its data holder: the extension of an ACTIVE consent, or the first
 * authorisation of a REQUESTED one. Start (a sharing end from the use case's durations) → the
 * authorization URI the consumer visits, with its expiry → the data holder's response JWT pasted
 * back, decoded and checked before it is sent (expired, state mismatch, another consent) →
 * complete. In the embedded sandbox, "Simulate consumer approval" plays the consumer.
 */
const DURATIONS: Record<string, (d: Date) => Date> = {
  ONE_DAY: (d) => addDays(d, 1, inZone()),
  ONE_WEEK: (d) => addDays(d, 7, inZone()),
  TWO_WEEKS: (d) => addDays(d, 14, inZone()),
  ONE_MONTH: (d) => addMonths(d, 1, inZone()),
  THREE_MONTHS: (d) => addMonths(d, 3, inZone()),
  SIX_MONTHS: (d) => addMonths(d, 6, inZone()),
  NINE_MONTHS: (d) => addMonths(d, 9, inZone()),
  ONE_YEAR: (d) => addYears(d, 1, inZone()),
  SEVEN_YEARS: (d) => addYears(d, 7, inZone()),
};

export function sharingEndChoices(durations: readonly string[] | null | undefined, now: Date, after?: string | null) {
  const floor = after ? Math.max(Date.parse(after), now.getTime()) : now.getTime();
  return (
    (durations?.length ? durations : Object.keys(DURATIONS))
      .filter((d) => DURATIONS[d])
      // A plain Date: a zoned one's toISOString names its offset, and instants are sent in UTC.
      .map((d) => ({ duration: d, end: new Date(DURATIONS[d]!(now).getTime()) }))
      .filter((c) => c.end.getTime() > floor)
  );
}

export function AuthorizeDialog({
  consent,
  sharingDurations,
  opened,
  onClose,
}: {
  consent: Consent;
  sharingDurations: readonly string[] | null | undefined;
  opened: boolean;
  onClose(): void;
}) {
  const client = useClient();
  const queries = useQueryClient();
  const embedded = useAppStatus().data?.profile.embedded ?? false;
  const extension = consent.status === 'ACTIVE';
  const [now] = useState(() => new Date());
  const choices = sharingEndChoices(sharingDurations, now, extension ? consent.sharingEndDate : null);
  const allowCustom = !sharingDurations?.length || sharingDurations.includes('CUSTOM');
  const [choice, setChoice] = useState<string>(choices[0]?.duration ?? (allowCustom ? 'CUSTOM' : ''));
  const [custom, setCustom] = useState<string | null>(null);
  const [response, setResponse] = useState('');
  const [debounced] = useDebouncedValue(response.trim(), 250);

  const end =
    choice === 'CUSTOM'
      ? custom
        ? // The last second of the day picked, in the console's zone.
          utcIso(Date.parse(instantsOfDays(custom, custom).to!) - 1000)
        : null
      : (choices.find((c) => c.duration === choice)?.end.toISOString() ?? null);

  const start = useMutation({
    mutationFn: () => client.authorizationStart({ consentId: consent.consentId, ...(end ? { sharingEndDate: end } : {}) }),
    onError: () => void queries.invalidateQueries({ queryKey: ['app:status'] }),
  });
  const decoded = useQuery({
    queryKey: ['authorization:decode', consent.consentId, debounced],
    queryFn: () => client.authorizationDecode({ response: debounced, consentId: consent.consentId }),
    enabled: debounced.length > 0,
    retry: false,
  });
  const approve = useMutation({
    mutationFn: () => client.sandboxApprove({ uri: start.data!.uri }),
    onSuccess: (r) => setResponse(r.response),
  });
  const complete = useMutation({
    mutationFn: () => client.authorizationComplete({ consentId: consent.consentId, response: response.trim() }),
    onSuccess: (updated) => {
      void queries.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('consents:') });
      notifications.show({
        color: 'teal',
        title: extension ? 'Consent extended' : 'Consent authorised',
        message: `${consentName(consent)}: ${enumText(updated.status ?? 'ACTIVE').toLowerCase()}, sharing now ends ${formatLocalDateTime(updated.sharingEndDate)}.`,
      });
    },
  });
  const step = complete.data ? 3 : start.data ? (response.trim() ? 2 : 1) : 0;
  const close = () => {
    start.reset();
    complete.reset();
    approve.reset();
    setResponse('');
    onClose();
  };
  // A step's foot: Cancel, and its action on this consent ("Start extension", "Complete authorisation").
  const stepFooter = (
    verb: string,
    step: { error: Error | null; isPending: boolean; mutate(): void },
    errorTitle: string,
    disabled: boolean,
  ) => (
    <DialogFooter
      mutation={step}
      errorTitle={errorTitle}
      onCancel={close}
      action={`${verb} ${extension ? 'extension' : 'authorisation'}`}
      onAction={() => step.mutate()}
      disabled={disabled}
    />
  );

  return (
    <Modal opened={opened} onClose={close} title={extension ? 'Extend this consent' : 'Authorise this consent'} size="xl">
      <Stepper active={step} size="xs" mb="md" allowNextStepsSelect={false}>
        <Stepper.Step label="Sharing end" />
        <Stepper.Step label="Consumer approves" />
        <Stepper.Step label="Response" />
        <Stepper.Completed>{null}</Stepper.Completed>
      </Stepper>
      {complete.data ? (
        <Stack gap="sm">
          <Alert color="teal" title={extension ? 'Extended' : 'Authorised'} role="status">
            The consent is {complete.data.status}; sharing ends <Time iso={complete.data.sharingEndDate} focusable />.
          </Alert>
          <DialogFooter action="Close" onAction={close} />
        </Stack>
      ) : !start.data ? (
        <Stack gap="sm">
          <Text size="sm">
            {extension ? (
              <>
                Sharing ends <Time iso={consent.sharingEndDate} focusable /> now. Choose the new end date the consumer will be asked to
                approve at {consent.dataHolderName ?? 'their data holder'}.
              </>
            ) : (
              <>Choose until when the consumer will be asked to share their data.</>
            )}
          </Text>
          <Radio.Group label="New sharing end" value={choice} onChange={setChoice}>
            <Stack gap={4} mt={4}>
              {choices.map((c) => (
                <Radio
                  key={c.duration}
                  value={c.duration}
                  label={`${enumText(c.duration)} — ${formatLocalDateTime(c.end.toISOString())}`}
                />
              ))}
              {allowCustom ? <Radio value="CUSTOM" label="Another date" /> : null}
            </Stack>
          </Radio.Group>
          {choice === 'CUSTOM' ? (
            <DatePickerInput
              label="Sharing ends on"
              value={custom}
              onChange={(v) => setCustom(v ? String(v).slice(0, 10) : null)}
              minDate={now}
            />
          ) : null}
          {choices.length === 0 && !allowCustom ? (
            <Alert color="orange">None of this use case’s sharing durations ends after the current sharing end date.</Alert>
          ) : null}
          {stepFooter('Start', start, 'The authorization was not started', !end)}
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            Send the consumer this link: they sign in at {consent.dataHolderName ?? 'their data holder'} and approve. It expires{' '}
            {start.data.expiry ? <Time iso={start.data.expiry} seconds focusable /> : 'at a time the intermediary did not give'}.
          </Text>
          <Group gap={6} wrap="nowrap" align="flex-start">
            <Code block style={{ flex: 1, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} aria-label="Authorization URI">
              {start.data.uri}
            </Code>
            <Copy value={start.data.uri} label="Copy the authorization URI" />
          </Group>
          <Group gap="sm">
            <Anchor href={start.data.uri} target="_blank" rel="noopener noreferrer" size="sm">
              Open in the system browser
            </Anchor>
            {embedded ? (
              <Button size="xs" variant="light" onClick={() => approve.mutate()} loading={approve.isPending}>
                Simulate consumer approval
              </Button>
            ) : null}
          </Group>
          {approve.error ? <Alert color="red">{approve.error.message}</Alert> : null}
          <Textarea
            label="The data holder’s response (JWT)"
            description="Paste the response the consumer’s browser was redirected with. It is decoded and checked here before anything is sent."
            autosize
            minRows={3}
            maxRows={8}
            {...bindText(response, setResponse)}
            styles={MONOSPACE_INPUT}
          />
          {decoded.error ? (
            <Alert color="red" title="This is not a response JWT">
              {decoded.error.message}
            </Alert>
          ) : null}
          {decoded.data ? (
            <Stack gap={6}>
              {decoded.data.problems.length ? (
                <Alert color="orange" title="Check before sending" role="alert">
                  <List size="sm">
                    {decoded.data.problems.map((p) => (
                      <List.Item key={p}>{p}</List.Item>
                    ))}
                  </List>
                </Alert>
              ) : (
                <Text size="sm" c={ink('teal')}>
                  The response looks right: not expired, with a code and the state of this authorization.
                </Text>
              )}
              <Table withTableBorder fz="xs" aria-label="Claims of the response">
                <Table.Tbody>
                  {Object.entries(decoded.data.claims).map(([k, v]) => (
                    <Table.Tr key={k}>
                      <Table.Th w={90}>{k}</Table.Th>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        {(k === 'exp' || k === 'iat') && typeof v === 'number' ? (
                          <Time iso={new Date(v * 1000).toISOString()} seconds focusable />
                        ) : (
                          JSON.stringify(v)
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          ) : null}
          {stepFooter('Complete', complete, 'Not completed', !response.trim() || !!decoded.error)}
        </Stack>
      )}
    </Modal>
  );
}
