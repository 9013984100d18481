import { Tooltip } from '@mantine/core';
import type { CSSProperties, ReactElement } from 'react';

/**
 * A control that cannot be used now, with the reason: a disabled button can be neither hovered nor
 * focused, so this wrapper carries the reason for both (a tooltip, and the label a screen reader
 * reads: "<label> — unavailable: <reason>"). Without a reason it is the control itself.
 */
export function Unavailable({
  label,
  reason,
  style,
  children,
}: {
  label: string;
  reason: string | null;
  /** The wrapper's style, when it takes the control's place in a layout (a margin). */
  style?: CSSProperties;
  children: ReactElement;
}) {
  if (!reason) return children;
  return (
    <Tooltip label={reason} multiline w={320} withArrow>
      <span tabIndex={0} aria-label={`${label} — unavailable: ${reason}`} style={style}>
        {children}
      </span>
    </Tooltip>
  );
}
