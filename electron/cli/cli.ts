import '../runtime/node-guard.js';
import { Command, CommanderError, Option } from 'commander';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CoreError } from '../core/errors.js';
import { checkCache, resetCache } from '../core/console-core.js';
import { ProfilesError } from '../core/config/profiles.js';
import { describeOperator, OperatorStore } from '../core/operator.js';
import { REMOTE_COMMANDS, remoteOf, withRemote } from './remote.js';
import { runNormalize } from './normalize.js';
import { badIdentifier, oneLineUsageErrors } from './usage.js';
import { dataDirOf, EXIT, Exit, exitFor, identifier, positiveInt, readStdin, reasonOf, table, version, withCore } from './common.js';
import { withChannels } from './channels.js';
import { addProfileCommands } from './profiles.js';
import { addTeamCommands } from './team.js';
import { addUserCommands } from './users.js';
import { addDataCommands } from './data.js';
import { addAlertCommands } from './alerts.js';
import {
  AuditCheckpoint,
  CONSENT_SORT_FIELDS,
  ConsentSort,
  type ChannelInput,
  type ChannelOutput,
  type ConsentFilter,
  type Job,
} from '../../shared/ipc/contract.js';
import { exportConsents } from '../core/exports/consents-export.js';
import { ALL_CONSENT_COLUMNS } from '../../shared/consents/columns.js';
import { periodOfText } from '../../shared/time/periods.js';

/** --webhook-failures: a period as written (periodOfText), or a usage error that says what it takes. */
function failuresPeriod(text: string): { from?: string; to?: string } {
  const period = periodOfText(text);
  if (!period)
    throw new Exit(
      EXIT.usage,
      `--webhook-failures: "${text}" is not a period: write any, today, yesterday, last7, last30, thisMonth, lastMonth, a day (2026-11-27) or days (2026-11-01..2026-11-27).`,
    );
  return period;
}

/**
 * `npm run -s cli -- [--data-dir DIR] [--profile NAME] COMMAND`: the console's core for
 * back-office scripts. Tables for people, --json for scripts, errors on stderr, exit codes below.
 */
export { EXIT };

const EXIT_HELP = `
Exit codes:
  0  success
  1  error (the message says which)
  2  bad usage
  3  revoke: the consent was already inactive at the data holder (422)
  4  the intermediary could not be reached (offline); nothing was changed
  5  the intermediary refused the credentials or a scope
  6  audit verify: the audit log's hash chain is broken`;

export function buildProgram(): Command {
  const program = oneLineUsageErrors(new Command())
    .name('cli')
    .description('CDR Console for scripts: profiles, sync, consents, revocation, events, audit, normalisation.')
    .version(version)
    .option('--data-dir <dir>', 'data directory (default: CDR_CONSOLE_DATA_DIR, then the platform app-data folder)')
    .option('--profile <id>', 'connection profile (default: the one profiles.json names)')
    .option(
      '--server <url>',
      'a team server to work on instead of this machine (with --user; the password from CDR_CONSOLE_PASSWORD or asked)',
    )
    .option('--user <name>', 'who you are on the --server')
    .addHelpText('after', EXIT_HELP)
    .exitOverride();

  // With --server, only what a console can do on a team server runs, as the person signed in.
  program.hook('preAction', (_root, action) => {
    const remote = remoteOf(program);
    const name = action.parent && action.parent !== program ? `${action.parent.name()} ${action.name()}` : action.name();
    if (remote && !REMOTE_COMMANDS.has(name))
      throw new Exit(
        EXIT.usage,
        `${name} acts on this machine's data directory: it does not run with --server (these do: ${[...REMOTE_COMMANDS].join(', ')}).`,
      );
  });

  program
    .command('whoami')
    .description('who the commands act as: this machine’s operator, or the person signed in on --server')
    .action(async () => {
      const remote = remoteOf(program);
      if (remote)
        return withRemote(remote, async (c) => {
          const status = await c.call('app:status', {});
          process.stdout.write(
            `${c.user.userName} (${c.user.displayName}), ${c.user.role}, on ${remote.server} (${status.profile.name})\n`,
          );
        });
      process.stdout.write(`${describeOperator(new OperatorStore(dataDirOf(program)).get())} on this machine\n`);
    });

  addProfileCommands(program);
  addTeamCommands(program);
  addUserCommands(program);
  addDataCommands(program);
  addAlertCommands(program);

  program
    .command('sync')
    .description('sync consents, events, use cases and data holders into the cache; progress on stderr, a JSON summary on stdout')
    .option(
      '--full',
      'list every consent and re-read every event; without it, only what the events feed says changed and the new consents (every consent is listed every 6 hours anyway)',
    )
    .option('--data', 'also sync the Data API records of active consents, and the product catalogue')
    .action(async (o: { full?: boolean; data?: boolean }) => {
      await withChannels(program, async (call, on) => {
        on((event, payload) => {
          if (event !== 'sync:progress') return;
          const p = payload as { phase: string; done: number; total: number | null; state: string; message?: string };
          process.stderr.write(
            `${p.phase}${p.message && p.phase === 'data' ? ` ${p.message}` : ''}: ${p.done}${p.total !== null ? `/${p.total}` : ''} ${p.state}\n`,
          );
        });
        // Without --data, no Data API records (whatever the console's setting), here or on a server.
        const summary = await call('sync:start', { ...(o.full ? { full: true } : {}), data: Boolean(o.data) });
        process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
        if (summary.failures.length) throw new Exit(EXIT.error);
      });
    });

  program
    .command('consents')
    .description('consents from the cache, newest first (every matching one with --all)')
    .option('--status <status...>', 'only these statuses (REQUESTED, ACTIVE, REVOKED, EXPIRED, …; repeat or comma-separate)')
    .option('--search <text>', 'an identifier (consent, arrangement, external, consumer id), e-mail, mobile, or words of names')
    .option('--data-holder <brandId...>', 'only these data holders (brand ids)')
    .option('--use-case <id...>', 'only these use cases')
    .option(
      '--webhook-failures <period>',
      'only consents whose webhook deliveries failed in a period: any, today, yesterday, last7, last30, thisMonth, lastMonth, a day (2026-11-27) or days (2026-11-01..2026-11-27), in local time',
    )
    .option('--sort <field>', `order by one of ${CONSENT_SORT_FIELDS.join(', ')}; add :asc or :desc`, 'created:desc')
    .option('--limit <n>', 'at most N rows (1–500; ignored with --all)', positiveInt(500), 50)
    .option('--all', 'every matching consent, streamed (no limit)')
    .option('--count', 'only the number of matching consents, without fetching them ({"total": N} with --json)')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'csv', 'json']).default('table'))
    .option('--json', 'JSON output (same as --format json)')
    .action(
      async (o: {
        status?: string[];
        search?: string;
        dataHolder?: string[];
        useCase?: string[];
        webhookFailures?: string;
        sort: string;
        limit: number;
        all?: boolean;
        count?: boolean;
        format: 'table' | 'csv' | 'json';
        json?: boolean;
      }) => {
        const [field, direction = field === 'created' ? 'desc' : 'asc'] = o.sort.split(':');
        const sort = ConsentSort.safeParse({ field, direction });
        if (!sort.success) throw new Exit(EXIT.usage, `--sort: expected one of ${CONSENT_SORT_FIELDS.join(', ')}, with :asc or :desc`);
        const list = (v?: string[]) =>
          v
            ?.flatMap((x) => x.split(','))
            .map((x) => x.trim())
            .filter(Boolean);
        const ids = (v: string[] | undefined, what: string) => list(v)?.map((id) => identifier(id, what));
        const filter: ConsentFilter = {
          ...(o.status ? { statuses: list(o.status)! } : {}),
          ...(o.search ? { search: o.search } : {}),
          ...(o.dataHolder ? { dataHolderBrandIds: ids(o.dataHolder, 'Data holder brand id')! } : {}),
          ...(o.useCase ? { useCaseIds: ids(o.useCase, 'Use case id')! } : {}),
          ...(o.webhookFailures !== undefined ? { webhookFailures: failuresPeriod(o.webhookFailures) } : {}),
        };
        const format = o.json ? 'json' : o.format;
        if (o.count && o.all) throw new Exit(EXIT.usage, '--count and --all: choose one (--count writes only the number).');
        if (o.all) {
          if (remoteOf(program))
            throw new Exit(
              EXIT.usage,
              '--all with --server: every row leaving the team store at once is an export, made (and audited) by the server: use Export on the Consents screen (compliance), or --limit.',
            );
          if (format === 'table') throw new Exit(EXIT.usage, '--all writes every row: choose --format csv or --format json.');
          // Every row streamed to stdout: the export itself, on the record as from the console's.
          return withCore(program, async (core) => {
            const input = { filter, sort: sort.data, columns: [...ALL_CONSENT_COLUMNS], format };
            await core.recordExport(await exportConsents(core.stores.consents, input, process.stdout), input);
          });
        }
        // The rest through the contract's channels, on this machine or the team server's (channels.ts).
        await withChannels(program, async (call) => {
          if (o.count) {
            const { total } = await call('consents:count', { filter });
            return void process.stdout.write(
              { table: `${total}\n`, csv: `total\n${total}\n`, json: `${JSON.stringify({ total })}\n` }[format],
            );
          }
          const { rows } = await call('consents:list', { filter, sort: sort.data, offset: 0, limit: o.limit });
          if (format === 'table') {
            const { total } = await call('consents:count', { filter });
            return void process.stdout.write(
              `${table(rows, ['consentId', 'status', 'consumerEmail', 'dataHolderName', 'useCaseName', 'created', 'sharingEndDate'])}\n${rows.length} of ${total}${rows.length < total && !remoteOf(program) ? ' (--all --format csv|json for every row)' : ''}\n`,
            );
          }
          // The rows read, written as the export writes them (the same columns and local times).
          const read = { count: async () => ({ total: rows.length, statuses: [] }), list: async () => rows };
          const input = { filter, sort: sort.data, columns: [...ALL_CONSENT_COLUMNS], format };
          await exportConsents(read, input, process.stdout, { limit: rows.length });
        });
      },
    );

  program
    .command('consent <id>')
    .description('one consent from the cache, with its events')
    .option('--json', 'JSON output')
    .action(async (id: string, o: { json?: boolean }) => {
      identifier(id, 'Consent id');
      const show = ({ consent, events }: Pick<ChannelOutput<'consents:get'>, 'consent' | 'events'>) => {
        if (o.json) process.stdout.write(`${JSON.stringify({ consent, events }, null, 2)}\n`);
        else {
          const fields = [
            'consentId',
            'status',
            'consumerEmail',
            'consumerId',
            'dataHolderName',
            'cdrArrangementId',
            'created',
            'sharingEndDate',
            'revoked',
            'externalId',
            'postUsageAction',
            'directMarketingAllowed',
            'version',
          ] as const;
          for (const f of fields) process.stdout.write(`${f.padEnd(24)}${String(consent[f] ?? '—')}\n`);
          process.stdout.write(
            `${'useCase'.padEnd(24)}${consent.useCase?.name ?? '—'}\n\nEvents (newest first)\n${table(events, ['timestamp', 'eventType', 'eventDetail'])}\n`,
          );
        }
      };
      await withChannels(program, async (call) => {
        const detail = await call('consents:get', { consentId: id });
        show({ consent: detail.consent, events: detail.events.slice(0, 500) });
      });
    });

  program
    .command('revoke <id>')
    .description('revoke a consent (exit 3 when it was already inactive)')
    .requiredOption('--reason <text>', 'why: it goes into the audit log')
    .action(async (id: string, o: { reason: string }) => {
      identifier(id, 'Consent id');
      const reason = reasonOf(o.reason);
      {
        const value = await withChannels(program, (call) => call('consents:revoke', { consentId: id, reason }));
        if (value.outcome === 'already-inactive') {
          process.stdout.write(
            value.revokedBy
              ? `Consent ${id} was already revoked by ${value.revokedBy.operator} at ${value.revokedBy.at}; it was not sent again.\n`
              : `Consent ${id} was already inactive at the data holder; the cache is up to date.\n`,
          );
          throw new Exit(EXIT.alreadyInactive);
        }
        process.stdout.write(`Consent ${id} revoked.\n`);
      }
    });

  program
    .command('bulk-revoke')
    .description('revoke every consent listed in a file (one id per line), at a limited rate, item by item')
    .requiredOption('--file <ids>', 'file of consent ids, one per line ("-" for standard input)')
    .requiredOption('--reason <text>', 'why: it goes into the audit log for each consent')
    .option('--per-second <n>', 'at most N revocations per second', positiveInt(50), 5)
    .option('--json', 'JSON output')
    .action(async (o: { file: string; reason: string; perSecond: number; json?: boolean }) => {
      const reason = reasonOf(o.reason);
      const text = o.file === '-' ? await readStdin() : existsSync(o.file) ? readFileSync(o.file, 'utf8') : undefined;
      if (text === undefined) throw new Exit(EXIT.usage, `No such file: ${o.file}`);
      const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
      const ids: string[] = [];
      // Every id is checked before anything is revoked: one bad line refuses the file (nothing is lost).
      for (const [i, line] of lines.entries()) {
        const id = line.replace(/#.*/, '').trim();
        if (!id) continue;
        const problem = badIdentifier(id, 'consent id');
        if (problem)
          throw new Exit(EXIT.usage, `${o.file === '-' ? 'standard input' : o.file}, line ${i + 1}: ${problem}; nothing was revoked.`);
        ids.push(id);
      }
      if (!ids.length) throw new Exit(EXIT.usage, `${o.file === '-' ? 'standard input' : o.file} lists no consent id.`);
      const remote = remoteOf(program);
      if (remote)
        return withRemote(remote, async (c) => {
          // The server runs the job (and may hold a large one for a second person's approval): follow it to its end.
          let done: (job: Job) => void = () => {};
          const ended = new Promise<Job>((resolve) => (done = resolve));
          let jobId: string | null = null;
          const early: Job[] = [];
          c.on((event, payload) => {
            if (event !== 'jobs:progress') return;
            const job = payload as Job;
            if (jobId === null) return void early.push(job);
            if (job.jobId === jobId && ['finished', 'failed', 'cancelled'].includes(job.state)) done(job);
          });
          const started = await c.call('bulk:revoke', { consentIds: ids, reason, perSecond: o.perSecond });
          jobId = started.jobId;
          if (started.awaitingApproval) {
            process.stdout.write(
              `${o.json ? JSON.stringify({ jobId, awaitingApproval: true }) : `Job ${jobId}: ${ids.length} consents wait for a second person's approval (support or admin) before anything is sent; follow it in the console's Jobs.`}\n`,
            );
            return;
          }
          for (const j of early) if (j.jobId === jobId && ['finished', 'failed', 'cancelled'].includes(j.state)) done(j);
          const job = await ended;
          process.stdout.write(
            o.json ? `${JSON.stringify({ jobId, counts: job.counts, state: job.state }, null, 2)}\n` : `${JSON.stringify(job.counts)}\n`,
          );
          if (job.counts.pending) throw new Exit(EXIT.offline, `Stopped: ${job.counts.pending} consents still pending (job ${jobId}).`);
          if (job.counts.failed || job.state !== 'finished') throw new Exit(EXIT.error, job.message ?? undefined);
        });
      await withCore(program, async (core) => {
        const jobId = await core.actions.createBulkRevoke(ids, reason);
        const items = await core.actions.runBulkRevoke(jobId, {
          perSecond: o.perSecond,
          onItem: (i) => {
            if (!o.json) process.stderr.write(`${i.seq}/${ids.length} ${i.consentId} ${i.status}${i.detail ? `: ${i.detail}` : ''}\n`);
          },
        });
        const counts = items.reduce<Record<string, number>>((m, i) => ((m[i.status] = (m[i.status] ?? 0) + 1), m), {});
        process.stdout.write(o.json ? `${JSON.stringify({ jobId, counts, items }, null, 2)}\n` : `${JSON.stringify(counts)}\n`);
        if (counts.pending) throw new Exit(EXIT.offline, `Stopped while offline: ${counts.pending} consents still pending (job ${jobId}).`);
        if (counts.failed) throw new Exit(EXIT.error);
      });
    });

  program
    .command('events')
    .description('consent events from the cache, newest first')
    .option('--consent <id>', 'events of one consent')
    .option('--type <type...>', 'only these event types')
    .option('--limit <n>', 'at most N events (1–5000)', positiveInt(5000), 100)
    .option('--json', 'JSON output')
    .action(async (o: { consent?: string; type?: string[]; limit: number; json?: boolean }) => {
      if (o.consent !== undefined) identifier(o.consent, 'Consent id');
      await withChannels(program, async (call) => {
        const filter = {
          ...(o.consent ? { consentId: o.consent } : {}),
          ...(o.type ? { types: o.type.flatMap((t) => t.split(',')) } : {}),
        };
        const rows: ChannelOutput<'events:list'>['rows'] = [];
        while (rows.length < o.limit) {
          const page = await call('events:list', { filter, offset: rows.length, limit: Math.min(500, o.limit - rows.length) });
          rows.push(...page.rows);
          if (page.rows.length < 500) break;
        }
        process.stdout.write(
          `${o.json ? JSON.stringify(rows, null, 2) : table(rows, ['timestamp', 'eventType', 'consentId', 'eventDetail'])}\n`,
        );
      });
    });

  const audit = program.command('audit').description('the audit log');
  audit
    .command('verify')
    .description('check the hash chain, and its MACs on a team server (exit 0 when it holds, 6 when it is broken)')
    .option('--checkpoint <file>', 'a checkpoint file (audit checkpoint): also proves nothing up to it changed since it was made')
    .action(async (o: { checkpoint?: string }) => {
      const input = o.checkpoint ? { checkpoint: readCheckpointFile(o.checkpoint) } : {};
      const v = await withChannels(program, (call) => call('audit:verify', input));
      const lines: string[] = [];
      if (v.keyed)
        lines.push(
          v.keyed.from === null
            ? 'The log is not keyed yet (its entries carry no MAC): only their hashes are checked.'
            : `Keyed from entry ${v.keyed.from} (key ${v.keyed.keyId ?? '?'}): ${v.keyed.checked ? 'every MAC checked' : 'MACs NOT checked (this verifier does not hold the key)'}${v.keyed.unkeyed ? `; the ${v.keyed.unkeyed} entries before carry none and are checked by their hashes only` : ''}.`,
        );
      if (v.checkpoint)
        lines.push(
          v.checkpoint.ok
            ? `Checkpoint of entry ${v.checkpoint.seq} (made ${v.checkpoint.madeAt}): it holds — nothing up to it changed since.`
            : `Checkpoint of entry ${v.checkpoint.seq}: it does NOT hold — ${v.checkpoint.problem}.`,
        );
      const more = lines.map((l) => `${l}\n`).join('');
      if (v.ok) return void process.stdout.write(`The audit log holds: ${v.entries} entries, chain intact.\n${more}`);
      const problems = v.problems ?? [v.problem];
      const list = problems.length > 1 ? `\n${problems.map((p) => `  - ${p}`).join('\n')}` : '';
      throw new Exit(
        EXIT.auditBroken,
        `The audit log is broken at entry ${v.brokenAt}: ${v.problem}.${list}${more ? `\n${more.trimEnd()}` : ''}`,
      );
    });
  audit
    .command('checkpoint')
    .description(
      "a signed checkpoint of the team log's head, to keep elsewhere (audit verify --checkpoint FILE proves nothing before it changed)",
    )
    .option('--output <file>', 'write it to this file (default: standard output)')
    .action(async (o: { output?: string }) => {
      if (!remoteOf(program))
        throw new Exit(
          EXIT.usage,
          "Checkpoints are a team server's: run this with --server URL (a solo console's log is anchored in its data directory).",
        );
      const c = await withChannels(program, (call) => call('audit:checkpoint', {}));
      const text = `${JSON.stringify(c, null, 2)}\n`;
      if (!o.output) return void process.stdout.write(text);
      writeFileSync(o.output, text, { flag: 'wx' });
      process.stdout.write(`Checkpoint of entry ${c.seq} written to ${o.output}: keep it somewhere the team's servers cannot write.\n`);
    });
  audit
    .command('export')
    .description('every entry with its hashes')
    .addOption(new Option('--format <format>', 'output format').choices(['csv', 'json']).default('json'))
    .action(async (o: { format: 'csv' | 'json' }) => {
      await withChannels(program, async (call) => void process.stdout.write((await call('audit:export', { format: o.format })).content));
    });

  const cache = program.command('cache').description("the profile's local cache");
  cache
    .command('check')
    .description('read and authenticate every page of the cache (the full integrity check); exit 1 with the recovery path if damaged')
    .action(() => {
      const checked = checkCache(dataDirOf(program), program.opts<{ profile?: string }>().profile);
      if (!checked) return void process.stdout.write('There is no cache yet.\n');
      if (checked.problem) throw new Exit(EXIT.error, checked.problem.message);
      process.stdout.write(`The cache at ${checked.file} is intact.\n`);
    });
  cache
    .command('reset')
    .description('move the cache aside (kept, renamed); the next sync fills a new one')
    .action(() => {
      const moved = resetCache(dataDirOf(program), program.opts<{ profile?: string }>().profile);
      process.stdout.write(
        moved ? `The cache was moved aside to ${moved}; run sync to fill a new one.\n` : 'There was no cache to reset.\n',
      );
    });

  program
    .command('operator <displayName>')
    .description('set the display name recorded with your OS account in the audit log')
    .action((name: string) => {
      let o;
      try {
        o = new OperatorStore(dataDirOf(program)).setDisplayName(name);
      } catch (error) {
        if (error instanceof RangeError) throw new Exit(EXIT.usage, error.message);
        throw error;
      }
      process.stdout.write(`Operator: ${o.account} (${o.displayName})\n`);
    });

  program
    .command('normalize')
    .description('normalise banking product / account JSON to Data API 2.0.0 (see npm run -s normalize -- --help)')
    .allowUnknownOption()
    .helpOption(false)
    .argument('[inputs...]')
    .action((inputs: string[]) => {
      throw new Exit(runNormalize(inputs));
    });
  return program;
}

export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof Exit) {
      if (error.message) process.stderr.write(`${error.message}\n`);
      return error.code;
    }
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof ProfilesError || error instanceof CoreError || error instanceof Error) {
      process.stderr.write(`cli: ${error.message}\n`);
      return exitFor(error);
    }
    process.stderr.write(`cli: ${String(error)}\n`);
    return EXIT.error;
  }
}

// Run as a file of its own (tsx electron/cli/cli.ts …); the bundle is run by its launcher (dist/electron/cli.mjs).
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href)
  void runCli(process.argv.slice(2)).then((code) => (process.exitCode = code));

/** A checkpoint file's content (audit checkpoint), or a usage error saying what is wrong with the file. */
function readCheckpointFile(file: string): ChannelInput<'audit:verify'>['checkpoint'] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Exit(EXIT.usage, `The checkpoint file ${file} cannot be read as JSON: ${(error as Error).message}`);
  }
  const parsed = AuditCheckpoint.safeParse(raw);
  if (!parsed.success)
    throw new Exit(
      EXIT.usage,
      `${file} is not a checkpoint made by audit checkpoint (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''}).`,
    );
  return parsed.data;
}
