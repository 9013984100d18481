import { useDebouncedCallback } from '@mantine/hooks';
import { useState, type ChangeEvent } from 'react';

/**
 * Small helpers for the inputs of forms and filter rows: a text input's value and change handler
 * from one state, a checkbox's likewise, the monospace look of inputs that take ids, keys or
 * tokens, and a search box that answers every keystroke while telling the URL after a pause.
 */
type TextEvent = ChangeEvent<HTMLInputElement | HTMLTextAreaElement>;

/** `value` and `onChange` of a text input (or textarea) kept in a string state. */
export function bindText(value: string, set: (value: string) => void) {
  return { value, onChange: (e: TextEvent) => set(e.currentTarget.value) };
}

/** `checked` and `onChange` of a checkbox or switch kept in a boolean state. */
export function bindChecked(checked: boolean, set: (checked: boolean) => void) {
  return { checked, onChange: (e: ChangeEvent<HTMLInputElement>) => set(e.currentTarget.checked) };
}

/** For a textarea that takes pasted ids, keys or tokens: monospace, small. */
export const MONOSPACE_INPUT = { input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } };

/**
 * A text box whose value follows every keystroke at once and is pushed (to the URL, say) after
 * `wait` ms of quiet: `input` goes on the TextInput; `setValue` changes the box without pushing.
 */
export function useDebouncedText(initial: string, push: (value: string) => void, wait: number) {
  const [value, setValue] = useState(initial);
  const pushLater = useDebouncedCallback(push, wait);
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    setValue(e.currentTarget.value);
    pushLater(e.currentTarget.value);
  };
  return { value, setValue, input: { value, onChange } };
}
