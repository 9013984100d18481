import type { Command } from 'commander';
import { dataDirOf, Exit, EXIT, readStdin } from './common.js';

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
  team
    .command('import-audit')
    .description('import a solo console’s audit log into the team store, as a chain of its own, verified, marked with where it came from')
    .requiredOption('--from <dir>', 'the solo console’s data directory')
    .option('--from-profile <id>', 'its connection profile (default: the one its profiles.json names)')
    .option('--database-url <url>', 'the team store’s PostgreSQL (default: the embedded one of the data directory)')
    .option('--accept-broken', 'import a log that does not verify, as found, with its problems recorded')
    .action(async (o: { from: string; fromProfile?: string; databaseUrl?: string; acceptBroken?: boolean }) => {
      const { connectTeamDatabase } = await import('../team/database.js');
      const { importSoloAudit } = await import('../team/import-audit.js');
      const { OperatorStore, describeOperator } = await import('../core/operator.js');
      const db = await connectTeamDatabase({ dataDir: dataDirOf(program), ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}) });
      try {
        const r = await importSoloAudit(
          db.url,
          { dataDir: o.from, ...(o.fromProfile ? { profileId: o.fromProfile } : {}) },
          {
            operator: describeOperator(new OperatorStore(dataDirOf(program)).get()),
            ...(o.acceptBroken ? { acceptBroken: true } : {}),
            auditKeys: async (pg) => {
              const { teamAuditKeys } = await import('../team/audit-keys.js');
              const { SecretVault } = await import('../core/secrets/vault.js');
              const { createKeyFileCipher } = await import('../core/secrets/cipher.js');
              const dir = dataDirOf(program);
              return teamAuditKeys(new SecretVault(dir, createKeyFileCipher(dir)), pg);
            },
          },
        );
        process.stdout.write(
          `Imported ${r.entries} audit entries from ${r.origin} as chain ${r.chain} (head hash ${r.headHash}); ${r.verification.ok ? 'it verified before the import' : 'it did NOT verify: its problems are recorded with it'}.\n`,
        );
      } finally {
        await db.stop();
      }
    });
  team
    .command('oidc-secret')
    .description(
      'keep the single sign-on client secret (read from standard input) in the data directory’s vault, for npm run team -- --oidc-client-id …',
    )
    .action(async () => {
      const { SecretVault } = await import('../core/secrets/vault.js');
      const { createKeyFileCipher } = await import('../core/secrets/cipher.js');
      const { OIDC_SECRET } = await import('../team/serve.js');
      const { ensureDataDir } = await import('../core/data-dir.js');
      const secret = (await readStdin()).trim();
      if (!secret) throw new Exit(EXIT.usage, 'Pipe the client secret in: printf %s "$SECRET" | npm run -s cli -- team oidc-secret');
      const dir = ensureDataDir(dataDirOf(program));
      new SecretVault(dir, createKeyFileCipher(dir)).set(OIDC_SECRET, secret);
      process.stdout.write('The single sign-on client secret is kept in the vault; the team server reads it at start.\n');
    });
}
