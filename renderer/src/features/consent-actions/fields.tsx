import { Switch, TextInput, type SwitchProps } from '@mantine/core';
import { ChoiceSelect } from '../../ui/ChoiceSelect.js';
import { bindChecked, bindText } from '../../ui/fields.js';

/**
 * Fields more than one consent dialog asks for: the post-usage action and direct marketing (create,
 * update), and the confirmation a production profile asks before a revocation (one, or in bulk).
 */
export const POST_USAGE_ACTIONS = [
  { value: 'DELETION', label: 'Deletion' },
  { value: 'DE_IDENTIFICATION', label: 'De-identification' },
];

/** What happens to the consumer's data when the consent ends. */
export function PostUsageActionSelect({
  value,
  onChange,
  description,
}: {
  value: string;
  onChange(v: string): void;
  description?: string;
}) {
  return (
    <ChoiceSelect
      label="Post-usage action"
      {...(description ? { description } : {})}
      data={POST_USAGE_ACTIONS}
      value={value}
      onChange={onChange}
    />
  );
}

export function DirectMarketingSwitch({
  checked,
  onChange,
  ...props
}: { checked: boolean; onChange(checked: boolean): void } & Omit<SwitchProps, 'checked' | 'onChange'>) {
  return <Switch {...props} label="Direct marketing allowed" {...bindChecked(checked, onChange)} />;
}

/**
 * In a production profile, what is typed to confirm a revocation: `expected` ("(abc123)" shows it
 * in the label), to the letter; `mismatch` says what is wrong once the user has tried to send.
 */
export function ProductionConfirm({
  what,
  expected,
  value,
  onChange,
  showErrors,
  mismatch,
  required = false,
}: {
  what: string;
  expected: string;
  value: string;
  onChange(value: string): void;
  showErrors: boolean;
  mismatch: string;
  required?: boolean;
}) {
  return (
    <TextInput
      label={`Production: type ${what} (${expected}) to confirm`}
      {...bindText(value, onChange)}
      error={showErrors && value.trim() !== expected ? mismatch : undefined}
      autoComplete="off"
      required={required}
    />
  );
}
