import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Caller, Job, Role } from '../../shared/ipc/contract.js';
import { CoreError } from '../../electron/ipc/router.js';
import { loadRoleRules } from '../../renderer/src/features/status/can.js';
import { JobProgress } from '../../renderer/src/ui/jobs/JobProgress.js';
import { useSession } from '../../renderer/src/stores/session.js';
import { memoryClient, renderWithClient } from './harness.js';

/**
 * A bulk revocation held for a second person (issue 20): Jobs shows it awaiting approval, with
 * Approve and Reject for a support agent or an admin, disabled with the reason for the others,
 * and the server's refusal (the asker approving their own) said where they clicked.
 */
const awaiting: Job = {
  jobId: 'job-77',
  kind: 'bulk-revoke',
  title: 'Revoke 60 consents',
  state: 'awaiting-approval',
  done: 0,
  total: 60,
  counts: { pending: 60, revoked: 0, 'already-inactive': 0, failed: 0 },
  startedAt: '2026-11-26T01:00:00.000Z',
  finishedAt: null,
  message:
    'Asked by sam (Sam Support) (“incident 12”): waiting for a second person with the support or admin role to approve or reject it. Nothing is sent until then.',
  perSecond: 5,
  result: null,
};
const person = (role: Role): Caller => ({ userId: `u-${role}`, displayName: `Pat ${role}`, role, method: 'password' });

function open(role: Role, decide: (input: { jobId: string; decision: string }) => Promise<unknown>) {
  useSession.setState({ connection: 'connected', syncProgress: null });
  const { client } = memoryClient(3, { 'bulk:decide': decide as never }, { user: person(role), status: { host: 'team' } });
  renderWithClient(<JobProgress job={awaiting} withItems={false} />, client);
}

describe('a bulk revocation awaiting approval', () => {
  it('offers Approve and Reject to a support agent, sends the decision, and shows no Cancel or rate', async () => {
    const asked: unknown[] = [];
    open('support', async (input) => {
      asked.push(input);
      return { jobId: input.jobId, decision: input.decision };
    });
    expect(screen.getByText('awaiting approval')).toBeInTheDocument();
    expect(screen.getByText(/Asked by sam \(Sam Support\)/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.queryByLabelText('Per second')).toBeNull();
    // The role rules load after the first screen's rows, or at the first role check with a role
    // (status/can.ts): until they are read nothing is allowed (the button says it is checking);
    // then the support agent's Approve is enabled, and a click sends the decision.
    await loadRoleRules();
    const approve = await screen.findByRole('button', { name: 'Approve' });
    await waitFor(() => expect(approve).toBeEnabled());
    await userEvent.click(approve);
    await waitFor(() => expect(asked).toEqual([{ jobId: 'job-77', decision: 'approve' }]));
  });

  it('shows the server’s refusal where the asker clicked', async () => {
    open('support', async () => {
      throw new CoreError('FORBIDDEN', 'A second person approves a bulk revocation: you asked for this one.');
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('you asked for this one');
  });

  it('is disabled, saying why, for a viewer or a compliance officer', async () => {
    open('compliance', async () => ({}));
    expect(
      await screen.findByLabelText(
        'Approve — unavailable: Approving bulk revocations needs the support role; you are a compliance officer.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approve' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reject' })).toBeDisabled();
  });
});
