import { Select, Stack, TextInput } from '@mantine/core';

/**
 * Why a consent is revoked: one of the common reasons, plus details (a ticket number, say), or
 * free text. Goes into the audit log word for word; at least 3 characters, at most 500.
 */
export const COMMON_REASONS = [
  'Consumer asked to withdraw the consent',
  'Consumer complaint',
  'Suspected fraud or account compromise',
  'Duplicate consent',
  'Data no longer needed for the use case',
  'Data holder request',
  'Incident response',
] as const;
const OTHER = 'Other (describe below)';

export interface ReasonValue {
  choice: string | null;
  details: string;
}

export const emptyReason: ReasonValue = { choice: null, details: '' };

export function reasonText(r: ReasonValue): string {
  const details = r.details.trim();
  if (!r.choice || r.choice === OTHER) return details;
  return details ? `${r.choice}: ${details}` : r.choice;
}

export function reasonProblem(r: ReasonValue): string | null {
  if (!r.choice) return 'Choose a reason.';
  const text = reasonText(r);
  if (text.length < 3) return 'Describe the reason (at least 3 characters).';
  if (text.length > 500) return 'The reason is too long (500 characters at most).';
  return null;
}

export function ReasonInput({ value, onChange, showErrors }: { value: ReasonValue; onChange(v: ReasonValue): void; showErrors: boolean }) {
  const problem = showErrors ? reasonProblem(value) : null;
  return (
    <Stack gap={6}>
      <Select
        label="Reason"
        description="Recorded in the audit log with your name."
        placeholder="Choose a reason"
        required
        data={[...COMMON_REASONS, OTHER]}
        value={value.choice}
        onChange={(choice) => onChange({ ...value, choice })}
        error={showErrors && !value.choice ? 'Choose a reason.' : undefined}
        comboboxProps={{ withinPortal: true }}
      />
      <TextInput
        label={value.choice === OTHER ? 'Describe the reason' : 'Details (ticket number, who asked)'}
        required={value.choice === OTHER}
        value={value.details}
        maxLength={450}
        onChange={(e) => onChange({ ...value, details: e.currentTarget.value })}
        error={problem && value.choice ? problem : undefined}
      />
    </Stack>
  );
}
