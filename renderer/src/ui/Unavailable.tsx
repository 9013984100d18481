import { Tooltip } from '@mantine/core';
import type { CSSProperties, ReactElement } from 'react';

/**
 * A control that cannot be used now, with the reason: a disabled button can be neither hovered nor
 * focused, so this wrapper carries the reason for both (a tooltip, and the label a screen reader
 * reads: "<label> — unavailable: <reason>"). Without a reason the wrapper stays, silent (no label,
 * no tab stop, no tooltip): the control keeps its place in the page when it becomes available, so
 * a click under way on it (pressed while the role rules arrived) is not split between the control
 * that was and a new one (a browser then sends the click to neither: issue 39).
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
  return (
    <Tooltip label={reason ?? ''} disabled={!reason} multiline w={320} withArrow>
      <span tabIndex={reason ? 0 : undefined} aria-label={reason ? `${label} — unavailable: ${reason}` : undefined} style={style}>
        {children}
      </span>
    </Tooltip>
  );
}
