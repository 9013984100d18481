import pg from 'pg';
import type { EventName } from '../../../shared/ipc/channels.js';
import type { PgDb } from './db.js';

/**
 * Live changes between the servers of one team: what one server's core tells its consoles (a
 * revoke, a sync's progress and what it stored, a bulk job's progress) reaches every other
 * server's consoles within a second. Each notice is a row of `team_notices` and a NOTIFY carrying
 * its sequence number; a server reads the rows after the last one it has seen, so a NOTIFY lost
 * while it was disconnected costs nothing: on reconnect it catches up with the same query.
 */
export const LIVE_CHANNEL = 'cdr_live';
/** What crosses between servers: the consoles' refreshes and progress, not a profile switch (each server's own). */
export const RELAYED: ReadonlySet<EventName> = new Set<EventName>(['sync:progress', 'cache:changed', 'jobs:progress']);
/**
 * Not a console's event: sessions a server ended (a sign-out, a role changed, a user disabled, a
 * password reset), so that every other server closes its connections of them at once (issue 35).
 */
export const PEOPLE_ENDED = 'people:ended';
/** What one server tells the others. */
export type Notice = EventName | typeof PEOPLE_ENDED;
const isRelayed = (event: string): event is Notice => event === PEOPLE_ENDED || RELAYED.has(event as EventName);
/** Notices older than this are deleted: a server away longer reloads what its consoles show anyway. */
const KEEP_MS = 10 * 60_000;
/** How far back (in sequence numbers) a read looks for notices that committed late. */
const LATE_WINDOW = 200;

/** The live relay's pace for a sync's progress: the newest running report at most this often. */
export const PROGRESS_EVERY_MS = 250;

export interface LiveRelay {
  /** Relays an event to the other servers (a running sync's progress: the newest, a few times a second). */
  relay(event: EventName, payload: unknown): void;
  /** Sends what waits and waits for what was sent. */
  close(): Promise<void>;
}

/**
 * What a server's core says, relayed to the other servers without putting a row and a NOTIFY on the
 * sync's hot path for every progress report: a running sync's progress is sent at most every
 * `everyMs` (the newest report; those between are of no use to a console that is behind anyway),
 * and an ending one (finished, failed, cancelled) at once, after the ones before it and never
 * followed by an older one. Other events go as they come.
 */
export function liveRelay(
  send: (event: EventName, payload: unknown) => Promise<void>,
  onError: (error: Error) => void,
  everyMs = PROGRESS_EVERY_MS,
): LiveRelay {
  let pending: unknown;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastSent = -Infinity;
  /** The progress reports in order, one insert at a time (sequence numbers follow the order sent). */
  let chain: Promise<void> = Promise.resolve();
  const progress = (payload: unknown) => {
    lastSent = Date.now();
    chain = chain.then(() => send('sync:progress', payload)).catch(onError);
  };
  const flush = () => {
    timer = undefined;
    if (pending === undefined) return;
    const p = pending;
    pending = undefined;
    progress(p);
  };
  return {
    relay(event, payload) {
      if (event !== 'sync:progress') return void send(event, payload).catch(onError);
      if ((payload as { state?: unknown } | null)?.state === 'running') {
        pending = payload;
        timer ??= setTimeout(flush, Math.max(0, lastSent + everyMs - Date.now()));
        return;
      }
      // The end of a sync: the running report still waiting is stale now.
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
      progress(payload);
    },
    async close() {
      if (timer) clearTimeout(timer);
      flush();
      await chain;
    },
  };
}

export interface LiveStatus {
  connected: boolean;
  /** Why the link is down, in words. */
  problem: string | null;
}

export interface TeamLive {
  publish(event: Notice, payload: unknown): Promise<void>;
  status(): LiveStatus;
  close(): Promise<void>;
}

export interface LiveOptions {
  url: string;
  db: PgDb;
  origin: string;
  /** A notice from another server. */
  onNotice(event: Notice, payload: unknown): void;
  /** The link went down or came back. */
  onStatus?(status: LiveStatus): void;
  log?: (line: string) => void;
  /** How long to wait before reconnecting (doubles up to 5 s). */
  retryMs?: number;
}

export async function startTeamLive(opts: LiveOptions): Promise<TeamLive> {
  const start = await opts.db.one<{ seq: number | null }>('SELECT max(seq) AS seq FROM team_notices');
  let last = start?.seq ?? 0;
  /** Notices published before this server started are not its consoles' news. */
  const startSeq = last;
  const seen = new Set<number>();
  let client: pg.Client | undefined;
  let closed = false;
  let status: LiveStatus = { connected: false, problem: null };
  let retry = opts.retryMs ?? 250;
  let catching: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const setStatus = (s: LiveStatus) => {
    if (s.connected === status.connected && s.problem === status.problem) return;
    status = s;
    opts.onStatus?.(s);
  };

  /** Reads the notices after the last one seen, in order; one read at a time. */
  const catchUp = () => {
    catching = catching
      .then(async () => {
        // Sequence numbers are taken when a row is inserted, not when it commits: a notice may become
        // visible after a later one. The read goes back a window before the newest seen and skips
        // what it has seen, so such a notice is still delivered (once).
        const floor = Math.max(0, last - LATE_WINDOW);
        const rows = await opts.db.query<{ seq: number; origin: string; event: string; payload: unknown }>(
          'SELECT seq, origin, event, payload FROM team_notices WHERE seq > $1 ORDER BY seq LIMIT 10000',
          [floor],
        );
        for (const s of seen) if (s <= floor) seen.delete(s);
        for (const r of rows) {
          if (seen.has(r.seq)) continue;
          seen.add(r.seq);
          last = Math.max(last, r.seq);
          if (r.seq <= startSeq) continue;
          if (r.origin === opts.origin || !isRelayed(r.event)) continue;
          try {
            opts.onNotice(r.event, r.payload);
          } catch (error) {
            opts.log?.(`a notice from another server was refused: ${(error as Error).message}`);
          }
        }
      })
      .catch((error: Error) => opts.log?.(`catching up with the other servers failed: ${error.message}`));
    return catching;
  };

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({ connectionString: opts.url, application_name: 'cdr-console live' });
    c.on('error', () => undefined);
    c.on('end', () => {
      if (client !== c || closed) return;
      client = undefined;
      setStatus({ connected: false, problem: 'The team database connection was lost; reconnecting.' });
      schedule();
    });
    c.on('notification', (n) => {
      if (n.channel === LIVE_CHANNEL && !seen.has(Number(n.payload))) void catchUp();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${LIVE_CHANNEL}`);
    } catch (error) {
      await c.end().catch(() => undefined);
      setStatus({ connected: false, problem: `The team database cannot be reached (${(error as Error).message}); retrying.` });
      return schedule();
    }
    if (closed) return void (await c.end().catch(() => undefined));
    client = c;
    retry = opts.retryMs ?? 250;
    setStatus({ connected: true, problem: null });
    // What was published while this server was not listening.
    await catchUp();
  };

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => void connect(), retry);
    timer.unref();
    retry = Math.min(retry * 2, 5_000);
  };

  const prune = setInterval(() => {
    void opts.db.query('DELETE FROM team_notices WHERE at < now() - make_interval(secs => $1)', [KEEP_MS / 1000]).catch(() => undefined);
  }, 60_000);
  prune.unref();

  await connect();
  return {
    async publish(event, payload) {
      await opts.db.query(
        `WITH n AS (INSERT INTO team_notices (origin, event, payload) VALUES ($1, $2, $3) RETURNING seq)
         SELECT pg_notify($4, seq::text) FROM n`,
        [opts.origin, event, JSON.stringify(payload), LIVE_CHANNEL],
      );
    },
    status: () => status,
    async close() {
      closed = true;
      clearInterval(prune);
      if (timer) clearTimeout(timer);
      await catching;
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
