import { Alert, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Consent } from '../../../../shared/schemas/consent.js';
import { useClient } from '../../bridge/ClientContext.js';
import { DialogFooter } from '../../ui/DialogFooter.js';
import { bindText } from '../../ui/fields.js';
import { enumText, formatLocalDateTime } from '../../ui/format.js';
import { sharingEndChoices } from './AuthorizeDialog.js';
import { DirectMarketingSwitch, PostUsageActionSelect } from './fields.js';

/**
 * A new consent for a consumer: use case and data holder (those the use case offers), the
 * consumer's e-mail (or id), a sharing end from the use case's durations, and the optional fields.
 * The intermediary creates it REQUESTED; the consumer then authorises it at the data holder
 * (the caller opens the authorisation next).
 */
export function CreateConsentDialog({ opened, onClose, onCreated }: { opened: boolean; onClose(): void; onCreated(c: Consent): void }) {
  const client = useClient();
  const queries = useQueryClient();
  const reference = useQuery({ queryKey: ['reference:list'], queryFn: () => client.referenceList({}), enabled: opened });
  const [useCaseId, setUseCaseId] = useState<string | null>(null);
  const [holderId, setHolderId] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [consumerId, setConsumerId] = useState('');
  const [duration, setDuration] = useState<string | null>(null);
  const [externalId, setExternalId] = useState('');
  const [postUsageAction, setPostUsageAction] = useState<string>('DELETION');
  const [directMarketing, setDirectMarketing] = useState(false);
  const [now] = useState(() => new Date());

  const useCases = (reference.data?.useCases ?? []).filter((u) => u.active !== false);
  const useCase = useCases.find((u) => u.id === useCaseId);
  const holders = useCase?.dataHolders ?? [];
  const choices = sharingEndChoices(useCase?.sharingDurations, now).filter((c) => c.end.getTime() <= now.getTime() + 366 * 86_400_000);
  const end = choices.find((c) => c.duration === duration)?.end;

  const create = useMutation({
    mutationFn: () =>
      client.consentsCreate({
        useCaseId: useCaseId!,
        dataHolderBrandId: holderId!,
        sharingEndDate: end!.toISOString(),
        ...(email.trim() ? { consumerEmail: email.trim() } : {}),
        ...(consumerId.trim() ? { consumerId: consumerId.trim() } : {}),
        ...(externalId.trim() ? { externalId: externalId.trim() } : {}),
        postUsageAction: postUsageAction as 'DELETION' | 'DE_IDENTIFICATION',
        directMarketingAllowed: directMarketing,
      }),
    onSuccess: (consent) => {
      void queries.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('consents:') });
      onCreated(consent);
    },
  });
  const ready = useCaseId && holderId && end && (email.trim() || consumerId.trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready) create.mutate();
  };

  return (
    <Modal opened={opened} onClose={onClose} title="New consent" size="lg">
      <form onSubmit={submit}>
        <Stack gap="sm">
          {reference.data && useCases.length === 0 ? <Alert color="orange">No use cases are cached yet: sync first.</Alert> : null}
          <Select
            label="Use case"
            required
            searchable
            data={useCases.map((u) => ({ value: u.id, label: u.name ?? u.id }))}
            value={useCaseId}
            onChange={(v) => {
              setUseCaseId(v);
              setHolderId(null);
              setDuration(null);
            }}
            comboboxProps={{ withinPortal: true }}
          />
          {useCase?.description ? (
            <Text size="xs" c="dimmed">
              {useCase.description}
            </Text>
          ) : null}
          <Select
            label="Data holder"
            required
            searchable
            disabled={!useCase}
            data={holders.map((h) => ({ value: h.dataHolderBrandId, label: h.brandName ?? h.dataHolderBrandId }))}
            value={holderId}
            onChange={setHolderId}
            comboboxProps={{ withinPortal: true }}
          />
          <Group grow align="flex-start">
            <TextInput
              label="Consumer e-mail"
              type="email"
              description={
                useCase?.notificationType === 'EMAIL' ? 'Required: this use case notifies by e-mail.' : 'Or give the consumer id.'
              }
              {...bindText(email, setEmail)}
            />
            <TextInput label="Consumer id" description="For back-channel creation." {...bindText(consumerId, setConsumerId)} />
          </Group>
          <Select
            label="Sharing ends"
            required
            disabled={!useCase}
            data={choices.map((c) => ({
              value: c.duration,
              label: `${enumText(c.duration)} — ${formatLocalDateTime(c.end.toISOString())}`,
            }))}
            value={duration}
            onChange={setDuration}
            comboboxProps={{ withinPortal: true }}
          />
          <TextInput label="External id (optional)" maxLength={200} {...bindText(externalId, setExternalId)} />
          <Group grow>
            <PostUsageActionSelect value={postUsageAction} onChange={setPostUsageAction} />
            <DirectMarketingSwitch mt="lg" checked={directMarketing} onChange={setDirectMarketing} />
          </Group>
          <DialogFooter
            mutation={create}
            errorTitle="Not created"
            onCancel={onClose}
            action="Create, then authorise"

            disabled={!ready}
          />
        </Stack>
      </form>
    </Modal>
  );
}
