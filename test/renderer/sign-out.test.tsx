import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { Caller } from '../../shared/ipc/contract.js';
import { page } from '../../renderer/src/bridge/page.js';
import { SESSION_ENDED, websocketTransport } from '../../renderer/src/bridge/websocket-transport.js';
import { StatusBar } from '../../renderer/src/features/status/StatusBar.js';
import { useSession } from '../../renderer/src/stores/session.js';
import { memoryClient, renderWithClient } from './harness.js';

/**
 * Leaving a team server (issue 20): Sign out and Sign out everywhere in the status bar, and a
 * console whose session ended under it (signed out elsewhere, disabled, a new role) going to the
 * sign-in page instead of reconnecting for ever. jsdom neither navigates nor has a server: the
 * page's `assign` and `fetch` are replaced.
 */
const alice: Caller = { userId: 'u-1', displayName: 'Alice Admin', role: 'admin', method: 'password' };

let assign: MockInstance<(typeof page)['assign']>;
let fetchMock: MockInstance<(typeof page)['fetch']>;
beforeEach(() => {
  assign = vi.spyOn(page, 'assign').mockImplementation(() => undefined);
  fetchMock = vi.spyOn(page, 'fetch');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the status bar of a signed-in person', () => {
  it.each([
    ['Sign out', {}],
    ['Sign out everywhere', { everywhere: true }],
  ])('%s: POST /api/signout on this origin, then the sign-in page', async (item, body) => {
    fetchMock.mockResolvedValue(json(200, { signedOut: true }));
    useSession.setState({ connection: 'connected', syncProgress: null });
    renderWithClient(<StatusBar />, memoryClient(1, {}, { user: alice }).client);
    expect(await screen.findByTestId('status-user')).toHaveTextContent('Signed in as Alice Admin · Admin');
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: item }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/signin?signed-out'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/signout');
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(String(init!.body))).toEqual(body);
  });

  it('says so when the server cannot be reached, and stays', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    useSession.setState({ connection: 'connected', syncProgress: null });
    renderWithClient(<StatusBar />, memoryClient(1, {}, { user: alice }).client);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    expect(await screen.findByText('Not signed out')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('has no sign-out without sign-in (solo mode)', async () => {
    useSession.setState({ connection: 'connected', syncProgress: null });
    renderWithClient(<StatusBar />, memoryClient(1).client);
    expect(await screen.findByText('Embedded sandbox')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
  });
});

/** A WebSocket the test opens and closes as the server would. */
class FakeSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  constructor(readonly url: string) {
    super();
    FakeSocket.all.push(this);
  }
  send(): void {}
  close(): void {}
  open(): void {
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  closeWith(code: number, reason = ''): void {
    this.readyState = FakeSocket.CLOSED;
    this.dispatchEvent(Object.assign(new Event('close'), { code, reason }));
  }
}

describe('the connection of a console whose session ends', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.useFakeTimers();
  });
  const last = () => FakeSocket.all.at(-1)!;

  it('closed by the server with SESSION_ENDED: the sign-in page, no reconnecting', async () => {
    websocketTransport('ws://team.test/ipc');
    last().open();
    last().closeWith(SESSION_ENDED, 'Signed out: the session ended');
    expect(assign).toHaveBeenCalledWith('/signin?signed-out');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a reconnect refused while the server says the session is over: the sign-in page', async () => {
    fetchMock.mockResolvedValue(json(401, { error: 'Not signed in.', signIn: '/signin' }));
    websocketTransport('ws://team.test/ipc');
    last().open();
    last().closeWith(1006);
    // Dropped while open: reconnecting, without asking.
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeSocket.all).toHaveLength(2);
    last().closeWith(1006);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/session');
    expect(assign).toHaveBeenCalledWith('/signin');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it.each([
    ['a session still in force (the server is restarting)', () => json(200, { user: {}, expiresAt: '2026-12-01T00:00:00.000Z' })],
    ['the solo browser host, which has no /api/session', () => new Response('Not found', { status: 404 })],
    ['a 401 that is not the sign-in answer', () => new Response('Unauthorized', { status: 401 })],
  ])('a reconnect refused with %s: reconnecting goes on, the server asked once', async (_, answer) => {
    fetchMock.mockImplementation(async () => answer());
    websocketTransport('ws://team.test/ipc');
    last().open();
    last().closeWith(1006);
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(10_000);
      last().closeWith(1006);
    }
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeSocket.all).toHaveLength(5);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(assign).not.toHaveBeenCalled();
  });

  it('a server that does not answer: reconnecting goes on, asking again until it answers', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    websocketTransport('ws://team.test/ipc');
    last().closeWith(1006);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeSocket.all).toHaveLength(2);
    expect(assign).not.toHaveBeenCalled();
    // Back, but the session ended meanwhile (idle too long): the next refusal finds it out.
    fetchMock.mockResolvedValue(json(401, { error: 'Not signed in.', signIn: '/signin' }));
    last().closeWith(1006);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(assign).toHaveBeenCalledWith('/signin');
  });
});
