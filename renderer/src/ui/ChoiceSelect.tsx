import { Select, type SelectProps } from '@mantine/core';

/**
 * A Select that always holds one of its choices: it cannot be cleared, and a change hands over the
 * value chosen, typed as the choices are.
 */
export function ChoiceSelect<Value extends string>({
  value,
  onChange,
  ...select
}: { value: Value; onChange(value: NoInfer<Value>): void } & Omit<SelectProps, 'value' | 'onChange' | 'allowDeselect'>) {
  return <Select allowDeselect={false} value={value} onChange={(v) => v !== null && onChange(v as Value)} {...select} />;
}
