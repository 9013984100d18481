import type { AppStatus, TeamStatus } from '../../../shared/ipc/contract.js';
import { currentCaller } from '../../ipc/request-context.js';
import { CoreError } from '../errors.js';
import { approveInSandbox } from '../connection.js';
import type { CoreContext, HandlersOf, Reachability } from '../context.js';
import type { SyncService } from '../sync/service.js';
import { probeTeamServer, teamServerAddress, writeTeamClient } from '../team-client.js';

export interface AppContext extends Pick<CoreContext, 'stores' | 'log'> {
  about: Pick<AppStatus, 'appVersion' | 'host' | 'profile' | 'keyStorage'>;
  sync: SyncService;
  intermediary: Reachability;
  /** The embedded sandbox's address, when the profile is the embedded one. */
  sandboxUrl: string | undefined;
  /** A team server's team (store-opener.ts). */
  team?: { status(): Promise<TeamStatus> } | undefined;
  /** The desktop's switch to a team server's console (core-api.ts connectTeam). */
  connectTeam?: ((url: URL) => void) | undefined;
  /** The data directory, where the desktop keeps the team server's address. */
  dataDir?: string;
}

/** The app as a whole: what the status bar shows, and the embedded sandbox's simulated approval. */
export function appHandlers(ctx: AppContext): HandlersOf<'app:status' | 'sandbox:approve' | 'client:connect' | 'app:reportError'> {
  const reports = errorReportLimit();
  /** What the store said last: a team server whose database is away keeps showing it (the team status says why). */
  let known = { lastSyncAt: null as string | null, consentCount: 0 };
  const away = (team: TeamStatus | undefined) => team?.database?.state === 'unreachable';
  return {
    'app:status': async () => {
      let team = ctx.team ? await ctx.team.status() : undefined;
      if (!away(team)) {
        try {
          known = { lastSyncAt: await ctx.sync.lastSyncAt(), consentCount: await ctx.stores.consents.total() };
        } catch (error) {
          // A team database that went away just now: its status says so from this failure on.
          team = ctx.team ? await ctx.team.status() : undefined;
          if (!away(team)) throw error;
        }
      }
      // The person asking (their own, never another console's: read per request, not memoised).
      const caller = currentCaller();
      return {
        ...ctx.about,
        ...known,
        ...(caller ? { user: { userId: caller.userId, displayName: caller.displayName, role: caller.role, method: caller.method } } : {}),
        lastSyncError: ctx.sync.lastError,
        online: ctx.intermediary.online,
        syncing: ctx.sync.syncing,
        ...(team ? { team } : {}),
      };
    },
    'app:reportError': async ({ where, location, message, stack }) => {
      const verdict = reports.take(Date.now());
      if (verdict === 'drop') return { logged: false };
      if (verdict === 'last') {
        ctx.log.error('Renderer errors: more than 20 in a minute; the rest of this minute are not logged');
        return { logged: false };
      }
      const caller = currentCaller();
      const who = caller ? ` (${caller.userName ?? caller.userId}, ${caller.role})` : '';
      // A page's text writes no line of its own in the log: control characters become spaces.
      const trace = stack
        ? stack
            .split('\n')
            .slice(0, 30)
            .map((line) => `\n    ${oneLine(line)}`)
            .join('')
        : '';
      ctx.log.error(`Renderer: ${oneLine(where)} failed at ${oneLine(location) || '/'}${who}: ${oneLine(message)}${trace}`);
      return { logged: true };
    },
    'client:connect': async ({ url }) => {
      if (!ctx.connectTeam || !ctx.dataDir)
        throw new CoreError(
          'FORBIDDEN',
          "Connecting to a team server is the desktop app's: in a browser, open the team server's address instead.",
        );
      let address: URL;
      try {
        address = teamServerAddress(url);
      } catch (error) {
        throw new CoreError('INVALID_INPUT', (error as Error).message);
      }
      try {
        await probeTeamServer(address);
      } catch (error) {
        throw new CoreError('UPSTREAM', (error as Error).message);
      }
      writeTeamClient(ctx.dataDir, address);
      ctx.connectTeam(address);
      return { url: address.origin };
    },
    'sandbox:approve': async ({ uri }) => {
      if (!ctx.sandboxUrl) throw new CoreError('FORBIDDEN', 'Simulated approval exists only in the embedded sandbox.');
      return { response: await approveInSandbox(ctx.sandboxUrl, uri) };
    },
  };
}

const oneLine = (text: string) => [...text].map((ch) => (ch < ' ' || ch === '\u007f' ? ' ' : ch)).join('');

/** At most 20 renderer error reports a minute go to the log; the first one over says so. */
function errorReportLimit(perMinute = 20) {
  let minute = 0;
  let count = 0;
  return {
    take(now: number): 'log' | 'last' | 'drop' {
      const m = Math.floor(now / 60_000);
      if (m !== minute) {
        minute = m;
        count = 0;
      }
      count++;
      return count <= perMinute ? 'log' : count === perMinute + 1 ? 'last' : 'drop';
    },
  };
}
