import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { OperatorPrompt } from '../../renderer/src/features/operator/OperatorPrompt.js';
import { memoryClient, renderWithClient } from './harness.js';

describe('first-run operator prompt', () => {
  it('asks for a display name until one is saved, naming the OS account', async () => {
    let saved: string | null = null;
    const { client, calls } = memoryClient(0, {
      'operator:get': async () => ({ account: 'sam', displayName: saved }),
      'operator:set': async ({ displayName }) => {
        saved = displayName;
        return { account: 'sam', displayName };
      },
    });
    renderWithClient(<OperatorPrompt />, client);
    expect(await screen.findByText('Who is using the console?')).toBeInTheDocument();
    expect(screen.getByText('sam')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Your name as colleagues know it'), 'Sam Nguyen');
    await userEvent.click(save);
    await waitFor(() => expect(screen.queryByText('Who is using the console?')).not.toBeInTheDocument());
    expect(calls.find((c) => c.channel === 'operator:set')).toMatchObject({ input: { displayName: 'Sam Nguyen' } });
  });

  it('stays away once a name is known', async () => {
    const { client } = memoryClient(0, { 'operator:get': async () => ({ account: 'sam', displayName: 'Sam' }) });
    renderWithClient(<OperatorPrompt />, client);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Who is using the console?')).not.toBeInTheDocument();
  });
});
