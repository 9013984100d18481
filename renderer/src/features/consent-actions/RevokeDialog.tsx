import { Alert, Code, Modal, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { Consent } from '../../../../shared/schemas/consent.js';
import { IpcError } from '../../../../shared/ipc/errors.js';
import { useClient } from '../../bridge/ClientContext.js';
import { DialogFooter } from '../../ui/DialogFooter.js';
import { useAppStatus } from '../status/app-status.js';
import { StatusBadge } from '../../ui/StatusBadge.js';
import { enumText } from '../../ui/format.js';
import { consentName } from '../../../../shared/consents/status.js';
import { Time } from '../../ui/Time.js';
import { ProductionConfirm } from './fields.js';
import { emptyReason, ReasonInput, reasonProblem, reasonText } from './ReasonInput.js';

/** A status in words, as a sentence reads it ("revoked"). */
const statusWords = (status: string | null | undefined) => (status ? enumText(status).toLowerCase() : 'unknown');

/**
 * Revoking one consent: its key facts, a mandatory reason, and — in a production profile — the
 * last 6 characters of its id typed as a confirmation. The outcome is said in words: revoked;
 * already inactive (the 422: no authorised consent exists at the data holder, and the cache was
 * refreshed); or failed with the precise error, nothing changed.
 */
export function RevokeDialog({ consent, opened, onClose }: { consent: Consent; opened: boolean; onClose(): void }) {
  const client = useClient();
  const queries = useQueryClient();
  const production = useAppStatus().data?.profile.environment === 'prod';
  const [reason, setReason] = useState(emptyReason);
  const [confirm, setConfirm] = useState('');
  const [tried, setTried] = useState(false);
  const suffix = consent.consentId.slice(-6);
  const revoke = useMutation({
    mutationFn: () => client.consentsRevoke({ consentId: consent.consentId, reason: reasonText(reason) }),
    onSuccess: (r) => {
      void queries.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('consents:') });
      if (r.outcome === 'revoked') {
        notifications.show({
          color: 'teal',
          title: 'Consent revoked',
          // Named as people know it (its consumer's e-mail), its state in words.
          message: `${consentName(consent)}: the consent is now ${statusWords(r.consent.status ?? 'REVOKED')}.`,
        });
        close();
      }
    },
    onError: () => void queries.invalidateQueries({ queryKey: ['app:status'] }),
  });
  const close = () => {
    setReason(emptyReason);
    setConfirm('');
    setTried(false);
    revoke.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (reasonProblem(reason) || (production && confirm.trim() !== suffix)) return;
    revoke.mutate();
  };
  const already = revoke.data?.outcome === 'already-inactive';
  // What is revoked, as the user should check it before sending.
  const facts: [string, ReactNode][] = [
    ['Consent id', <Code>{consent.consentId}</Code>],
    ['Status', <StatusBadge status={consent.status} />],
    ['Consumer', consent.consumerEmail ?? consent.consumerId ?? '—'],
    ['Data holder', consent.dataHolderName ?? '—'],
    ['Use case', consent.useCase?.name ?? '—'],
    ['Sharing ends', <Time iso={consent.sharingEndDate} />],
  ];
  return (
    <Modal opened={opened} onClose={close} title="Revoke this consent?" size="lg">
      {already && revoke.data!.revokedBy ? (
        <Stack gap="sm">
          <Alert color="orange" title="Already revoked" role="alert">
            {revoke.data!.revokedBy.operator} revoked this consent at <Time iso={revoke.data!.revokedBy.at} />. Nothing was sent to the
            intermediary again; the consent is now shown as <strong>{statusWords(revoke.data!.consent.status)}</strong>. Your attempt is in
            the audit log.
          </Alert>
          <DialogFooter action="Close" onAction={close} />
        </Stack>
      ) : already ? (
        <Stack gap="sm">
          <Alert color="orange" title="Already inactive at the data holder" role="alert">
            The intermediary answered 422: no authorised consent exists at the data holder for this arrangement, so there was nothing to
            revoke. The cache was refreshed from the intermediary; the consent is now shown as{' '}
            <strong>{statusWords(revoke.data!.consent.status)}</strong>. Your attempt is in the audit log.
          </Alert>
          <DialogFooter action="Close" onAction={close} />
        </Stack>
      ) : (
        <form onSubmit={submit}>
          <Stack gap="sm">
            <Table withTableBorder fz="sm" aria-label="The consent to revoke">
              <Table.Tbody>
                {facts.map(([label, value], i) => (
                  <Table.Tr key={label}>
                    <Table.Th {...(i === 0 ? { w: 170 } : {})}>{label}</Table.Th>
                    <Table.Td>{value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Text size="sm">
              The consumer’s data sharing stops at once at the data holder. This cannot be undone: the consumer would have to consent again.
            </Text>
            <ReasonInput value={reason} onChange={setReason} showErrors={tried} />
            {production ? (
              <ProductionConfirm
                what="the last 6 characters of the consent id"
                expected={suffix}
                value={confirm}
                onChange={setConfirm}
                showErrors={tried}
                mismatch="The characters do not match the consent id."
                required
              />
            ) : null}
            <DialogFooter
              mutation={revoke}
              errorTitle="Not revoked"
              errorNote={
                revoke.error instanceof IpcError && revoke.error.code === 'OFFLINE' ? null : (
                  <Text size="xs" mt={4}>
                    Nothing was changed. The attempt is in the audit log.
                  </Text>
                )
              }
              onCancel={close}
              action="Revoke consent"
              color="red"
            />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
