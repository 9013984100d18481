import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { consentHealth } from '../../../../shared/consents/health.js';
import type { ConsentDetail } from '../../../../shared/ipc/contract.js';
import { formatLocalDate } from '../../ui/format.js';

/**
 * The consent's problems above its facts, worst first (shared/consents/health.ts): failed and
 * exhausted webhook deliveries, sharing ending soon or passed, no data collected. When nothing is
 * wrong it says so in one quiet line.
 */
export function Health({ detail, onSee }: { detail: ConsentDetail; onSee(tab: 'timeline' | 'data'): void }) {
  const problems = consentHealth(detail.consent, detail.events, new Date(), formatLocalDate);
  if (!problems.length)
    return (
      <Text size="sm" c="dimmed" role="status">
        No problems found: no failed webhook deliveries, and nothing due.
      </Text>
    );
  return (
    <Stack gap={6} component="section" aria-label="Problems with this consent">
      {problems.map((p) => (
        <Alert key={p.kind} color={p.level === 'danger' ? 'red' : 'yellow'} variant="light" title={p.title} py={8}>
          <Text size="sm">
            {p.detail}{' '}
            {p.see ? (
              <Anchor component="button" type="button" size="sm" c="inherit" td="underline" fw={600} onClick={() => onSee(p.see!)}>
                {p.see === 'timeline' ? 'See the timeline' : 'See its data'}
              </Anchor>
            ) : null}
          </Text>
        </Alert>
      ))}
    </Stack>
  );
}
