import { Alert, Button, Code, Group, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { useClient } from '../bridge/ClientContext.js';

/**
 * What a person sees when a screen, or a part of the shell, fails while drawing (issue 34): the
 * failure in words, where the rest of the console still works, "Try again", and "Copy details" for
 * whoever looks into it; the same details go to the host's log (`app:reportError`). Never a
 * developer's error page.
 */

/** An error's message and stack, whatever was thrown. */
export function errorText(error: unknown): { message: string; stack: string | undefined } {
  if (error instanceof Error) return { message: `${error.name}: ${error.message}`, stack: error.stack };
  if (error && typeof error === 'object' && 'statusText' in error) {
    // A route's error response (react-router): 404 and the like.
    const r = error as { status?: unknown; statusText?: unknown };
    return { message: `${String(r.status ?? '')} ${String(r.statusText ?? '')}`.trim(), stack: undefined };
  }
  return { message: String(error), stack: undefined };
}

/** Whether the error is a screen's code that could not be loaded (a new build on the host, a network blip). */
export function isChunkLoadError(error: unknown): boolean {
  const { message } = errorText(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Loading chunk/i.test(
    message,
  );
}

/** The text "Copy details" puts on the clipboard: enough to match a person's report with the log. */
export function errorDetails(where: string, error: unknown, at = new Date()): string {
  const { message, stack } = errorText(error);
  return [
    `CDR Console: ${where} failed`,
    `When: ${at.toISOString()}`,
    `Where: ${typeof location === 'undefined' ? '' : location.hash || '#/'}`,
    `Browser: ${typeof navigator === 'undefined' ? '' : navigator.userAgent}`,
    `Error: ${message}`,
    ...(stack ? ['', stack] : []),
  ].join('\n');
}

/** Sends the failure to the host's log once per error (a redraw does not send it again). */
function useReported(where: string, error: unknown): void {
  const client = useClient();
  const sent = useRef<unknown>(undefined);
  useEffect(() => {
    if (sent.current === error) return;
    sent.current = error;
    const { message, stack } = errorText(error);
    client
      .appReportError({
        where: where.slice(0, 200),
        location: (location.hash || '#/').slice(0, 2000),
        message: message.slice(0, 2000),
        ...(stack ? { stack: stack.slice(0, 8000) } : {}),
      })
      .catch(() => undefined); // the host away: the panel still says what happened
  }, [client, where, error]);
}

export function ErrorPanel({
  title,
  where,
  error,
  onRetry,
  compact,
  children,
}: {
  /** "The Consents screen could not be shown". */
  title: string;
  /** For the log and the details: the screen's path, or the part of the shell. */
  where: string;
  error: unknown;
  onRetry: () => void;
  /** A part of the shell (one line's room): the message and the buttons, no explanation. */
  compact?: boolean;
  children?: ReactNode;
}) {
  useReported(where, error);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const details = errorDetails(where, error);
  const copy = () =>
    navigator.clipboard.writeText(details).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  const chunk = isChunkLoadError(error);
  const buttons = (
    <Group gap="xs" wrap="nowrap">
      <Button size="compact-sm" variant="default" onClick={onRetry}>
        {chunk ? 'Reload the console' : 'Try again'}
      </Button>
      <Button size="compact-sm" variant="subtle" onClick={() => void copy()}>
        Copy details
      </Button>
      <Text size="xs" c="dimmed" role="status">
        {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'The clipboard refused: the details are shown below.' : ''}
      </Text>
    </Group>
  );
  if (compact)
    return (
      <Group gap="xs" wrap="nowrap" role="alert" px="xs" style={{ overflow: 'hidden' }}>
        <Text size="xs" c="red.8" truncate="end">
          {title}: {errorText(error).message}
        </Text>
        {buttons}
      </Group>
    );
  return (
    <Alert color="red" variant="light" title={title} role="alert" m="md">
      <Stack gap="xs">
        <Text size="sm">
          {chunk
            ? 'Its code could not be loaded from the console host (the host may have been updated or restarted). Reloading the console fetches it again.'
            : 'Something went wrong while drawing it. The rest of the console works: choose another screen on the left, or try this one again. The details are in the console’s log.'}
        </Text>
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {errorText(error).message}
        </Text>
        {children}
        {buttons}
        {copied === 'no' ? (
          <Code block aria-label="Error details">
            {details}
          </Code>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** A part of the shell that may fail on its own (the status bar, the palette…) without taking the page with it. */
export function PartBoundary({ name, floating, children }: { name: string; floating?: boolean; children: ReactNode }) {
  const queries = useQueryClient();
  const fallback = ({ error, resetErrorBoundary }: FallbackProps) => {
    const panel = (
      <ErrorPanel
        title={`${name} failed`}
        where={name}
        error={error}
        compact
        onRetry={() => {
          if (isChunkLoadError(error)) return location.reload();
          queries.removeQueries({ type: 'inactive' }); // read again what it could not draw
          resetErrorBoundary();
        }}
      />
    );
    // A part with no place of its own on the page (the palette, the notifications) says so in a
    // corner above the status bar.
    return floating ? (
      <Paper withBorder shadow="md" p={4} pos="fixed" right={16} bottom={44} maw={640} style={{ zIndex: 400 }}>
        {panel}
      </Paper>
    ) : (
      panel
    );
  };
  return <ErrorBoundary fallbackRender={fallback}>{children}</ErrorBoundary>;
}
