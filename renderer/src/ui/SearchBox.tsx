import { TextInput, type TextInputProps } from '@mantine/core';
import { memo, useEffect, useState, type Ref } from 'react';

/** A text the box shows, set from elsewhere (Back, a saved view, Clear): a new object each time. */
export type SearchText = { readonly text: string };

type SearchBoxProps = Omit<TextInputProps, 'value' | 'onChange' | 'type'> & {
  /** The text to show now, whatever was typed: the box takes it whenever this object changes. */
  value: SearchText;
  /** Each text typed, at once: the screen starts its reads, and redraws with it when it chooses. */
  onType(text: string): void;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A search box whose keystrokes redraw the box alone. The screen around it learns each text from
 * `onType` and redraws when its reads for that text are in, once per keystroke rather than twice
 * (first busy with the previous rows, then with the new ones): at 100,000 consents the first redraw
 * took a third of a keystroke's time in Chromium on two cores, and held up the answer's.
 */
export const SearchBox = memo(function SearchBox({ value, onType, ref, ...input }: SearchBoxProps) {
  const [text, setText] = useState(value.text);
  useEffect(() => setText(value.text), [value]);
  return (
    <TextInput
      {...input}
      ref={ref}
      type="search"
      value={text}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        onType(next);
      }}
    />
  );
});
