import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ConsoleClient } from '../../renderer/src/bridge/client.js';
import { useFirstScreenShown } from '../../renderer/src/ui/first-screen.js';
import { memoryClient, renderRoute } from './harness.js';

/**
 * The shell's parts that can wait (status bar, palette, name prompt, notifications: AppLayout) load
 * once the first screen has shown its rows, not while they are read (issue 21).
 */
function ShellExtras() {
  return useFirstScreenShown(60_000) ? <p>the shell's extras</p> : null;
}

describe("the shell's extras wait for the first screen", () => {
  it('are not there while the first rows are read, and come once they show', async () => {
    const truth = memoryClient(30).client as ConsoleClient & { consentsList(input: unknown): Promise<unknown> };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { client } = memoryClient(30, {
      'consents:list': async (input: unknown) => {
        await gate;
        return truth.consentsList(input);
      },
    } as never);
    render(<ShellExtras />);
    renderRoute('/consents', client);
    await waitFor(() => expect(screen.getByTestId('consent-range').textContent).toBe('30 consents in the cache'));
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryAllByTestId('table-row')).toHaveLength(0);
    expect(screen.queryByText("the shell's extras")).toBeNull();

    release();
    await waitFor(() => expect(screen.getAllByTestId('table-row').length).toBeGreaterThan(5));
    expect(await screen.findByText("the shell's extras")).toBeInTheDocument();
  });
});
