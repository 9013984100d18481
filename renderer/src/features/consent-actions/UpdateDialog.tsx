import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Consent } from '../../../../shared/schemas/consent.js';
import { useClient } from '../../bridge/ClientContext.js';
import { DialogFooter } from '../../ui/DialogFooter.js';
import { bindText } from '../../ui/fields.js';
import { DirectMarketingSwitch, PostUsageActionSelect } from './fields.js';
import { consentName } from '../../../../shared/consents/status.js';

/**
 * Changing what the API lets a recipient change on a consent: external id, post-usage action,
 * direct marketing. The sharing end date is not offered: the API refuses it (an extension, which
 * the consumer authorises at the data holder, is the way). Only changed fields are sent.
 */
export function UpdateDialog({ consent, opened, onClose }: { consent: Consent; opened: boolean; onClose(): void }) {
  const client = useClient();
  const queries = useQueryClient();
  const [externalId, setExternalId] = useState(consent.externalId ?? '');
  const [postUsageAction, setPostUsageAction] = useState<string>(consent.postUsageAction ?? 'DELETION');
  const [directMarketing, setDirectMarketing] = useState(consent.directMarketingAllowed ?? false);
  const [reason, setReason] = useState('');
  const change = {
    ...(externalId.trim() !== (consent.externalId ?? '') ? { externalId: externalId.trim() || null } : {}),
    ...(postUsageAction !== (consent.postUsageAction ?? 'DELETION')
      ? { postUsageAction: postUsageAction as 'DELETION' | 'DE_IDENTIFICATION' }
      : {}),
    ...(directMarketing !== (consent.directMarketingAllowed ?? false) ? { directMarketingAllowed: directMarketing } : {}),
  };
  const update = useMutation({
    mutationFn: () => client.consentsUpdate({ consentId: consent.consentId, change, ...(reason.trim() ? { reason: reason.trim() } : {}) }),
    onSuccess: (updated) => {
      void queries.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('consents:') });
      notifications.show({
        color: 'teal',
        title: 'Consent updated',
        message: `${consentName(consent)}: now at version ${updated.version ?? '?'}.`,
      });
      onClose();
    },
    onError: () => void queries.invalidateQueries({ queryKey: ['app:status'] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (Object.keys(change).length) update.mutate();
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Update consent" size="md">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <TextInput
            label="External id"
            description="Your own reference for this consent (a CRM or customer number). Empty removes it."
            maxLength={200}
            {...bindText(externalId, setExternalId)}
          />
          <PostUsageActionSelect
            description="What happens to the consumer’s data when the consent ends."
            value={postUsageAction}
            onChange={setPostUsageAction}
          />
          <DirectMarketingSwitch checked={directMarketing} onChange={setDirectMarketing} />
          <TextInput label="Reason (optional)" maxLength={500} {...bindText(reason, setReason)} />
          <Text size="xs" c="dimmed">
            The sharing end date cannot be changed here: the intermediary refuses it. To give a consent more time, extend it — the consumer
            approves the new end date at their data holder.
          </Text>
          <DialogFooter
            mutation={update}
            errorTitle="Not updated"
            onCancel={onClose}
            action="Save changes"

            disabled={Object.keys(change).length === 0}
          />
        </Stack>
      </form>
    </Modal>
  );
}
