import { Alert, Checkbox, List, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { MAX_BULK } from '../../../../shared/ipc/limits.js';
import { useClient } from '../../bridge/ClientContext.js';
import { DialogFooter } from '../../ui/DialogFooter.js';
import { bindChecked, bindText, MONOSPACE_INPUT } from '../../ui/fields.js';
import { formatCount, plural } from '../../ui/format.js';
import { JobProgress } from '../../ui/jobs/JobProgress.js';
import { useJob } from '../../ui/jobs/jobs-store.js';
import { useAppStatus } from '../status/app-status.js';
import { ProductionConfirm } from './fields.js';
import { emptyReason, ReasonInput, reasonProblem, reasonText } from './ReasonInput.js';

/**
 * Revoking many consents: from a selection, or from a pasted list whose ids are checked first —
 * malformed ones refused, duplicates removed, ids the cache does not know flagged (left out unless
 * the user includes them). Then a reason, a rate, and in production the count typed to confirm.
 * It runs as a job in main, item by item, with progress, pause, cancel, results and their export;
 * it survives a restart (resumable from the jobs list).
 */
const ID = /^[A-Za-z0-9][A-Za-z0-9._:|@+-]{0,199}$/;

export function parseIds(text: string): { ids: string[]; invalid: string[]; duplicates: number } {
  const tokens = text
    .split(/[\s,;]+/)
    .map((t) => t.trim().replace(/^["']|["']$/g, ''))
    .filter(Boolean);
  const invalid = tokens.filter((t) => !ID.test(t));
  const valid = tokens.filter((t) => ID.test(t));
  const ids = [...new Set(valid)];
  return { ids, invalid: [...new Set(invalid)], duplicates: valid.length - ids.length };
}

export function BulkRevokeDialog({
  opened,
  onClose,
  selected,
  onStarted,
}: {
  opened: boolean;
  onClose(): void;
  selected?: string[];
  /** The job started: the selection it was made from has done its work. */
  onStarted?(): void;
}) {
  const client = useClient();
  const production = useAppStatus().data?.profile.environment === 'prod';
  const [text, setText] = useState('');
  const [reason, setReason] = useState(emptyReason);
  const [perSecond, setPerSecond] = useState<number | string>(5);
  const [includeUnknown, setIncludeUnknown] = useState(false);
  const [confirm, setConfirm] = useState('');
  const [tried, setTried] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJob(jobId);

  const parsed = useMemo(() => (selected ? { ids: selected, invalid: [], duplicates: 0 } : parseIds(text)), [selected, text]);
  const resolve = useMutation({ mutationFn: (ids: string[]) => client.consentsResolve({ consentIds: ids }) });
  const checked = resolve.data && resolve.variables?.join() === parsed.ids.join() ? resolve.data : undefined;
  const toRevoke = checked ? [...checked.known.map((k) => k.consentId), ...(includeUnknown ? checked.unknown : [])] : [];
  const notActive = checked?.known.filter((k) => k.status !== 'ACTIVE').length ?? 0;

  const start = useMutation({
    mutationFn: () => client.bulkRevoke({ consentIds: toRevoke, reason: reasonText(reason), perSecond: Number(perSecond) || 5 }),
    onSuccess: (r) => {
      setJobId(r.jobId);
      onStarted?.();
    },
  });
  const close = () => {
    setText('');
    setReason(emptyReason);
    setConfirm('');
    setTried(false);
    setJobId(null);
    resolve.reset();
    start.reset();
    onClose();
  };
  const submit = () => {
    setTried(true);
    if (reasonProblem(reason) || toRevoke.length === 0) return;
    if (production && confirm.trim() !== String(toRevoke.length)) return;
    start.mutate();
  };

  return (
    <Modal opened={opened} onClose={close} title="Revoke consents in bulk" size="xl">
      {job ? (
        <Stack gap="sm">
          <JobProgress job={job} withItems />
          <DialogFooter onCancel={close} cancelLabel="Close (the job goes on; see Jobs in the status bar)" />
        </Stack>
      ) : (
        <Stack gap="sm">
          {selected ? (
            <Text size="sm">{plural(selected.length, 'consent')} selected in the list.</Text>
          ) : (
            <Textarea
              label="Consent ids"
              description={`One per line (or separated by commas or spaces), up to ${formatCount(MAX_BULK)}.`}
              autosize
              minRows={4}
              maxRows={10}
              {...bindText(text, setText)}
              styles={MONOSPACE_INPUT}
            />
          )}
          {!selected && (parsed.invalid.length || parsed.duplicates) ? (
            <Alert color="orange" title="Some of what was pasted is left out">
              {parsed.duplicates ? <Text size="sm">{plural(parsed.duplicates, 'duplicate')} removed.</Text> : null}
              {parsed.invalid.length ? (
                <Text size="sm">
                  {plural(parsed.invalid.length, 'entry', 'entries')} not shaped like a consent id: {parsed.invalid.slice(0, 5).join(', ')}
                  {parsed.invalid.length > 5 ? '…' : ''}
                </Text>
              ) : null}
            </Alert>
          ) : null}
          {parsed.ids.length > MAX_BULK ? (
            <Alert color="red">At most {formatCount(MAX_BULK)} consents per bulk revocation; split the list.</Alert>
          ) : null}
          {!checked ? (
            <DialogFooter
              onCancel={close}
              action={`Check ${plural(parsed.ids.length, 'id')}`}
              onAction={() => resolve.mutate(parsed.ids)}
              mutation={resolve}
              errorTitle="Not checked"
              disabled={parsed.ids.length === 0 || parsed.ids.length > MAX_BULK}
            />
          ) : (
            <>
              <Alert color={checked.unknown.length ? 'orange' : 'blue'} title="Checked against the cache" role="status">
                <List size="sm">
                  <List.Item>{plural(checked.known.length, 'consent')} found in the cache.</List.Item>
                  {notActive ? (
                    <List.Item>
                      {formatCount(notActive)} of them are not ACTIVE: the intermediary will answer “already inactive” for those.
                    </List.Item>
                  ) : null}
                  {checked.unknown.length ? (
                    <List.Item>
                      {plural(checked.unknown.length, 'id')} unknown to the cache: {checked.unknown.slice(0, 5).join(', ')}
                      {checked.unknown.length > 5 ? '…' : ''}
                    </List.Item>
                  ) : null}
                </List>
                {checked.unknown.length ? (
                  <Checkbox
                    mt="xs"
                    size="xs"
                    label="Send the unknown ids too (the cache may be behind the intermediary)"
                    {...bindChecked(includeUnknown, setIncludeUnknown)}
                  />
                ) : null}
              </Alert>
              <ReasonInput value={reason} onChange={setReason} showErrors={tried} />
              <NumberInput
                label="Revocations per second"
                description="Keep it low on a shared intermediary; it can be changed while the job runs."
                min={0.1}
                max={50}
                w={220}
                value={perSecond}
                onChange={setPerSecond}
              />
              {production ? (
                <ProductionConfirm
                  what="the number of consents"
                  expected={String(toRevoke.length)}
                  value={confirm}
                  onChange={setConfirm}
                  showErrors={tried}
                  mismatch="The number does not match."
                />
              ) : null}
              <DialogFooter
                mutation={start}
                errorTitle="Not started"
                onCancel={close}
                action={`Revoke ${plural(toRevoke.length, 'consent')}`}
                color="red"
                onAction={submit}

                disabled={toRevoke.length === 0}
              />
            </>
          )}
        </Stack>
      )}
    </Modal>
  );
}
