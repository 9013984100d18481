import type { Command } from 'commander';
import { dataDirOf } from './common.js';

/**
 * `cli team status`: the team store of the data directory (its embedded PostgreSQL) or of
 * --database-url. Loaded only when a team command runs: the rest of the command line never loads
 * PostgreSQL's client.
 */
export function addTeamCommands(program: Command): void {
  const team = program.command('team').description('the team server’s store (PostgreSQL)');
  team
    .command('status')
    .description('the schema version, the sync (who syncs, when it last finished) and the servers connected')
    .option('--database-url <url>', 'the team store’s PostgreSQL (default: the embedded one of the data directory)')
    .option('--json', 'as JSON')
    .action(async (o: { databaseUrl?: string; json?: boolean }) => {
      const { connectTeamDatabase } = await import('../team/database.js');
      const { statusText, teamStatus } = await import('../team/status.js');
      const db = await connectTeamDatabase({ dataDir: dataDirOf(program), ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}) });
      try {
        const status = await teamStatus(db.url, db.description);
        process.stdout.write(o.json ? `${JSON.stringify(status, null, 2)}\n` : statusText(status));
      } finally {
        await db.stop();
      }
    });
}
