import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useClient } from '../../bridge/ClientContext.js';
import { useAppStatus } from '../status/app-status.js';

/**
 * First run: the operator chooses the display name recorded beside their OS account in the audit
 * log. Shown until a name is saved; it cannot be dismissed, because actions are audited by name.
 * Not shown to a signed-in person (team mode): their sign-in names them.
 */
export function OperatorPrompt() {
  const client = useClient();
  const queries = useQueryClient();
  const operator = useQuery({ queryKey: ['operator:get'], queryFn: () => client.operatorGet({}) });
  const [name, setName] = useState('');
  const save = useMutation({
    mutationFn: (displayName: string) => client.operatorSet({ displayName }),
    onSuccess: (value) => queries.setQueryData(['operator:get'], value),
  });
  const status = useAppStatus().data;
  const open = status !== undefined && !status.user && operator.data !== undefined && operator.data.displayName === null;
  const tooShort = name.trim().length < 2;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!tooShort) save.mutate(name.trim());
  };
  return (
    <Modal
      opened={open}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title="Who is using the console?"
      centered
    >
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Text size="sm">
            Everything you do here is recorded in the audit log under your computer account <strong>{operator.data?.account}</strong> and
            the name you give now.
          </Text>
          <TextInput
            label="Your name as colleagues know it"
            placeholder="e.g. Sam Nguyen, Support"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
            maxLength={80}
            error={save.error?.message}
          />
          <Button type="submit" disabled={tooShort} loading={save.isPending}>
            Save
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
