import { PgDb } from '../core/postgres/db.js';
import { verifyImportedChains } from '../core/postgres/audit.js';
import { PG_SCHEMA_VERSION, schemaVersion } from '../core/postgres/migrations.js';
import { describeInstance, liveInstances, type InstanceRow } from '../core/postgres/team-store.js';
import { LAST_SYNC_KEY } from '../core/sync/consent-sync.js';
import { LAST_SUMMARY_KEY } from '../core/sync/service.js';

/** What `cli team status` reports: the schema, the sync, the servers, the audit log. */
export interface TeamStatus {
  store: string;
  schema: { version: number; known: number };
  sync: { lastFinished: string | null; lastMode: string | null; runningOn: string | null };
  servers: InstanceRow[];
  audit: { entries: number; owner: string | null; tableOwnedByServerRole: boolean | null };
  /** Solo logs imported (cli team import-audit), each checked again as stored now. */
  imported: { chain: string; origin: string; entries: number; ok: boolean; problems: string[] }[];
}

export async function teamStatus(url: string, store: string): Promise<TeamStatus> {
  const db = new PgDb(url, { max: 1, applicationName: 'cdr-console cli' });
  try {
    const version = await schemaVersion(db);
    if (version === 0)
      return {
        store,
        schema: { version, known: PG_SCHEMA_VERSION },
        sync: { lastFinished: null, lastMode: null, runningOn: null },
        servers: [],
        audit: { entries: 0, owner: null, tableOwnedByServerRole: null },
        imported: [],
      };
    const state = async (key: string) =>
      (await db.one<{ value: string }>('SELECT value FROM sync_state WHERE key = $1', [key]))?.value ?? null;
    const summary = await state(LAST_SUMMARY_KEY);
    const servers = await liveInstances(db);
    const syncing = servers.find((s) => s.syncing);
    const audit = (await db.one<{ n: number; owner: string }>(
      `SELECT (SELECT count(*) FROM audit_log WHERE chain = 'team') AS n, pg_get_userbyid(relowner) AS owner FROM pg_class WHERE oid = 'audit_log'::regclass`,
    ))!;
    const appRole = `${(await db.one<{ d: string }>('SELECT current_database() AS d'))!.d}_app`;
    const hasApp = await db.one('SELECT 1 FROM pg_roles WHERE rolname = $1', [appRole]);
    return {
      store,
      schema: { version, known: PG_SCHEMA_VERSION },
      sync: {
        lastFinished: await state(LAST_SYNC_KEY),
        lastMode: summary ? ((JSON.parse(summary) as { mode?: string }).mode ?? null) : null,
        runningOn: syncing ? describeInstance(syncing) : null,
      },
      servers,
      audit: { entries: audit.n, owner: audit.owner, tableOwnedByServerRole: hasApp ? audit.owner === appRole : true },
      imported: await verifyImportedChains(db),
    };
  } finally {
    await db.close();
  }
}

export function statusText(s: TeamStatus): string {
  const lines = [
    `Team store: ${s.store}`,
    `Schema: version ${s.schema.version}${s.schema.version === s.schema.known ? '' : s.schema.version > s.schema.known ? ` (newer than this CDR Console, which knows ${s.schema.known})` : ` (this CDR Console brings it to ${s.schema.known} at the next server start)`}`,
    `Sync: ${s.sync.runningOn ? `running now on ${s.sync.runningOn}` : 'none running'}; last finished ${s.sync.lastFinished ?? 'never'}${s.sync.lastMode ? ` (${s.sync.lastMode})` : ''}`,
    `Servers connected: ${s.servers.length}`,
    ...s.servers.map(
      (i) => `  ${i.host} process ${i.pid} (${i.account}) ${i.url ?? ''} since ${i.started}, seen ${i.seen}${i.syncing ? ', syncing' : ''}`,
    ),
    `Audit log: ${s.audit.entries} entries${s.audit.owner ? `; table owned by ${s.audit.owner}${s.audit.tableOwnedByServerRole ? ' (the role the servers connect with: see docs/team-server.md)' : ', not the role the servers connect with'}` : ''}`,
    ...s.imported.map(
      (c) => `  imported ${c.chain}: ${c.entries} entries from ${c.origin}; ${c.ok ? 'verifies' : `BROKEN: ${c.problems.join('; ')}`}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
