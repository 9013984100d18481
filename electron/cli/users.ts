import { InvalidArgumentError, type Command } from 'commander';
import { ROLES, isRole, type Role } from '../../shared/ipc/roles.js';
import { dataDirOf, Exit, EXIT, table } from './common.js';
import type { People } from '../core/people/people.js';

/**
 * `cli users …`: the people of a team server (its data directory's embedded PostgreSQL, or
 * --database-url). Works whether a server runs or not; every change is written to the team's audit
 * log under this machine's operator, marked as made from the command line, and ends the sessions
 * it concerns (as the Users screen does).
 */
function role(value: string): Role {
  if (!isRole(value)) throw new InvalidArgumentError(`expected one of ${ROLES.join(', ')}`);
  return value;
}

/** A password piped in: the text as given, less the one line end a pipe or a heredoc adds. */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new Exit(EXIT.usage, 'Pipe the password in (--password-stdin), e.g. printf %s "$PASSWORD" | npm run -s cli -- users …');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
}

export function addUserCommands(program: Command): void {
  const users = program.command('users').description('the people of a team server: who signs in, with which role');
  const withPeople = async <T>(o: { databaseUrl?: string }, fn: (people: People, actor: string) => Promise<T>) => {
    const { connectTeamDatabase } = await import('../team/database.js');
    const { migrate } = await import('../core/postgres/migrations.js');
    const { PgDb } = await import('../core/postgres/db.js');
    const { pgPeopleStore } = await import('../core/postgres/people.js');
    const { pgAuditStore } = await import('../core/postgres/audit.js');
    const { People } = await import('../core/people/people.js');
    const { OperatorStore, describeOperator } = await import('../core/operator.js');
    const db = await connectTeamDatabase({ dataDir: dataDirOf(program), ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}) });
    const pg = new PgDb(db.url, { max: 2, applicationName: 'cdr-console cli' });
    try {
      await migrate(pg, { code: 'cdr-console cli' });
      const { teamAuditKeys } = await import('../team/audit-keys.js');
      const { SecretVault } = await import('../core/secrets/vault.js');
      const { createKeyFileCipher } = await import('../core/secrets/cipher.js');
      const { ensureDataDir } = await import('../core/data-dir.js');
      const dir = ensureDataDir(dataDirOf(program));
      const audit = pgAuditStore(pg, () => new Date(), undefined, await teamAuditKeys(new SecretVault(dir, createKeyFileCipher(dir)), pg));
      const people = new People(pgPeopleStore(pg), () => audit);
      return await fn(people, `${describeOperator(new OperatorStore(dataDirOf(program)).get())} [command line]`);
    } catch (error) {
      // The person's own mistakes (a taken name, a short password) are usage errors.
      if (error instanceof RangeError || (error as Error)?.name === 'UserExistsError') throw new Exit(EXIT.usage, (error as Error).message);
      throw error;
    } finally {
      await pg.close();
      await db.stop();
    }
  };
  const byName = async (people: People, name: string) => {
    const user = await people.store.byName(name);
    if (!user) throw new Exit(EXIT.error, `There is no user named ${name}.`);
    return user;
  };
  const dbOption = ['--database-url <url>', 'the team store’s PostgreSQL (default: the embedded one of the data directory)'] as const;

  users
    .command('add')
    .description('add a user who signs in with a password (--password-stdin) or through the identity provider (--sso)')
    .requiredOption('--name <name>', 'what they type to sign in (lower case: letters, digits, . _ @ + -)')
    .requiredOption('--display-name <text>', 'their full name, as the audit log shows it')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`, role)
    .option('--password-stdin', 'read the password from standard input (at least 12 characters)')
    .option('--sso', 'no password: they sign in through the identity provider only')
    .option(...dbOption)
    .action(async (o: { name: string; displayName: string; role: Role; passwordStdin?: boolean; sso?: boolean; databaseUrl?: string }) => {
      if (!o.passwordStdin === !o.sso) throw new Exit(EXIT.usage, 'Give exactly one of --password-stdin and --sso.');
      const password = o.passwordStdin ? await passwordFromStdin() : null;
      await withPeople(o, async (people, actor) => {
        const user = await people.add({ name: o.name, displayName: o.displayName, role: o.role, password }, actor);
        process.stdout.write(
          `Added ${user.name} (${user.displayName}), role ${user.role}, signs in ${user.method === 'oidc' ? 'through the identity provider' : 'with a password'}.\n`,
        );
      });
    });
  users
    .command('list')
    .description('the users, their role, whether they are disabled or locked, and their last sign-in')
    .option('--json', 'as JSON')
    .option(...dbOption)
    .action(async (o: { json?: boolean; databaseUrl?: string }) => {
      await withPeople(o, async (people) => {
        const all = await people.list();
        if (o.json) return void process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
        const now = new Date().toISOString();
        const rows = all.map((u) => ({
          name: u.name,
          'display name': u.displayName,
          role: u.role,
          'signs in with': u.method === 'oidc' ? 'single sign-on' : 'password',
          state: u.disabled ? 'disabled' : u.lockedUntil && u.lockedUntil > now ? `locked until ${u.lockedUntil}` : 'active',
          'last sign-in': u.lastSignInAt ?? 'never',
          sessions: u.sessions,
        }));
        process.stdout.write(`${table(rows, ['name', 'display name', 'role', 'signs in with', 'state', 'last sign-in', 'sessions'])}\n`);
      });
    });
  users
    .command('set-role')
    .description('change a user’s role (their sessions end: they sign in again with the new role)')
    .requiredOption('--name <name>', 'the user')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`, role)
    .option(...dbOption)
    .action(async (o: { name: string; role: Role; databaseUrl?: string }) => {
      await withPeople(o, async (people, actor) => {
        const user = await people.setRole((await byName(people, o.name)).id, o.role, actor);
        process.stdout.write(`${user.name} is now ${user.role}.\n`);
      });
    });
  for (const [command, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const)
    users
      .command(command)
      .description(disabled ? 'stop a user from signing in (their sessions end now)' : 'let a disabled user sign in again')
      .requiredOption('--name <name>', 'the user')
      .option(...dbOption)
      .action(async (o: { name: string; databaseUrl?: string }) => {
        await withPeople(o, async (people, actor) => {
          const user = await people.setDisabled((await byName(people, o.name)).id, disabled, actor);
          process.stdout.write(`${user.name} is ${user.disabled ? 'disabled' : 'enabled'}.\n`);
        });
      });
  users
    .command('reset-password')
    .description('set a new password read from standard input (their sessions end; a lock is lifted)')
    .requiredOption('--name <name>', 'the user')
    .requiredOption('--password-stdin', 'read the password from standard input')
    .option(...dbOption)
    .action(async (o: { name: string; databaseUrl?: string }) => {
      const password = await passwordFromStdin();
      await withPeople(o, async (people, actor) => {
        const user = await people.resetPassword((await byName(people, o.name)).id, password, actor);
        process.stdout.write(`The password of ${user.name} was reset; their sessions ended.\n`);
      });
    });
}
