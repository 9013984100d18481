import { Modal, Stack, Text, type ModalProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { DialogFooter } from './DialogFooter.js';

/**
 * A question before something that cannot be undone: what will happen, in a sentence or two, and
 * the red button that does it beside Cancel; the failure of an attempt is said above the buttons.
 */
export function ConfirmDialog({
  opened,
  onClose,
  title,
  size,
  children,
  action,
  onConfirm,
  mutation,
}: {
  opened: boolean;
  onClose(): void;
  title: string;
  size: NonNullable<ModalProps['size']>;
  children: ReactNode;
  action: string;
  onConfirm(): void;
  mutation: { error: Error | null; isPending: boolean };
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size}>
      <Stack gap="sm">
        <Text size="sm">{children}</Text>
        <DialogFooter mutation={mutation} onCancel={onClose} action={action} color="red" onAction={onConfirm} />
      </Stack>
    </Modal>
  );
}
