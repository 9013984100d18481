import { Alert, Button, Group, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The foot of a dialog: why its last attempt failed (an alert, the error's message under
 * `errorTitle`, then `errorNote`), any `children` (a note that belongs just above the buttons),
 * and the buttons on the right — Cancel (`onCancel`; `cancelLabel` renames it, e.g. "Close") and
 * the primary action. The action submits the dialog's form unless it has its own `onAction`.
 * `mutation`, the one the action runs, gives the error and the busy state at once.
 */
export function DialogFooter({
  mutation,
  error = mutation?.error,
  errorTitle,
  errorNote,
  children,
  onCancel,
  cancelLabel = 'Cancel',
  action,
  onAction,
  busy = mutation?.isPending ?? false,
  disabled = false,
  color,
}: {
  mutation?: { error: Error | null; isPending: boolean };
  error?: Error | null | undefined;
  errorTitle?: string;
  errorNote?: ReactNode;
  children?: ReactNode;
  onCancel?: () => void;
  cancelLabel?: ReactNode;
  action?: ReactNode;
  onAction?: () => void;
  busy?: boolean;
  disabled?: boolean;
  color?: MantineColor;
}) {
  return (
    <>
      {error ? (
        <Alert color="red" title={errorTitle} role="alert">
          {error.message}
          {errorNote}
        </Alert>
      ) : null}
      {children}
      <Group justify="flex-end">
        {onCancel ? (
          <Button variant="default" onClick={onCancel}>
            {cancelLabel}
          </Button>
        ) : null}
        {action ? (
          <Button type={onAction ? 'button' : 'submit'} onClick={onAction} loading={busy} disabled={disabled} {...(color ? { color } : {})}>
            {action}
          </Button>
        ) : null}
      </Group>
    </>
  );
}
