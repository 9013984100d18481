import { Option, type Command } from 'commander';
import { csvRows } from '../core/exports/csv.js';
import { EXIT, Exit, identifier, table } from './common.js';
import { withChannels, type Call } from './channels.js';
import type { ChannelOutput } from '../../shared/ipc/contract.js';

/**
 * `cli data KIND` — the cached Data API records for analysts and scripts, through the contract's
 * channels (the same role and input checks locally and on a team server) — and `cli data sync`.
 */
const KINDS = {
  accounts: 'accounts',
  balances: 'balances',
  transactions: 'transactions',
  payees: 'payees',
  'direct-debits': 'directDebits',
  'scheduled-payments': 'scheduledPayments',
  customers: 'customers',
  'energy-accounts': 'energyAccounts',
  invoices: 'invoices',
  bills: 'bills',
  'service-points': 'servicePoints',
  usage: 'usage',
  products: 'products',
} as const;
type KindName = keyof typeof KINDS;
type Kind = (typeof KINDS)[KindName];

const PAGE = 500;

/** Every row of a kind: of one consent, of each of a consumer's consents, or of the whole cache. */
async function* rowsOf(call: Call, kind: Kind, consentIds: string[] | undefined) {
  for (const consentId of consentIds ?? [undefined]) {
    for (let page = 1; ; page++) {
      const { rows, total } = await call('data:list', { kind, ...(consentId ? { consentId } : {}), page, pageSize: PAGE });
      yield* rows;
      if (page * PAGE >= total) break;
    }
  }
}

/** The consents whose data a --consumer names (as the cache knows them). */
async function consentsOfConsumer(call: Call, consumerId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { rows, total } = await call('data:consents', { consumerId, offset, limit: PAGE });
    ids.push(...rows.map((r) => r.consentId));
    if (offset + PAGE >= total) return ids;
  }
}

const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const cell = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

export function addDataCommands(program: Command): void {
  program
    .command('data')
    .description('cached Data API records of a kind (or: data sync)')
    .argument('<kind>', `${Object.keys(KINDS).join(', ')}; or sync`)
    .option('--consent <id>', 'only this consent’s records')
    .option('--consumer <id>', 'only the records of this consumer’s consents')
    .option('--count', 'only the number of records ({"total": N} with --json)')
    .option('--limit <n>', 'at most N rows in a table (default 50; csv and json write every row)', (v) => Number(v), 50)
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'csv', 'json']).default('table'))
    .option('--json', 'JSON output (same as --format json): a streamed array of the records')
    .option('--full', 'with sync: read every record again, not only what the intermediary retrieved since the last sync')
    .addHelpText(
      'after',
      `
  data sync [--consent ID] [--full]   fetch the Data API records (all active consents, or one); a JSON summary on stdout`,
    )
    .action(
      async (
        kindName: string,
        o: {
          consent?: string;
          consumer?: string;
          count?: boolean;
          limit: number;
          format: 'table' | 'csv' | 'json';
          json?: boolean;
          full?: boolean;
        },
      ) => {
        if (kindName === 'sync') return sync(program, o);
        if (!(kindName in KINDS))
          throw new Exit(EXIT.usage, `data: unknown kind "${kindName}": one of ${Object.keys(KINDS).join(', ')}, or sync.`);
        const kind = KINDS[kindName as KindName];
        if (o.consent && o.consumer) throw new Exit(EXIT.usage, '--consent and --consumer: choose one.');
        if (o.consent) identifier(o.consent, 'Consent id');
        if (!Number.isInteger(o.limit) || o.limit < 1) throw new Exit(EXIT.usage, '--limit: a whole number of rows, 1 or more.');
        const format = o.json ? 'json' : o.format;
        await withChannels(program, async (call) => {
          const consentIds = o.consent ? [o.consent] : o.consumer ? await consentsOfConsumer(call, o.consumer) : undefined;
          if (o.count) {
            let total = 0;
            for (const consentId of consentIds ?? [undefined])
              total += (await call('data:list', { kind, ...(consentId ? { consentId } : {}), page: 1, pageSize: 1 })).total;
            process.stdout.write(
              format === 'json' ? `${JSON.stringify({ total })}\n` : format === 'csv' ? `total\r\n${total}\r\n` : `${total}\n`,
            );
            return;
          }
          if (format === 'json') {
            // A streamed array: a record at a time, never the whole list in memory.
            let first = true;
            process.stdout.write('[');
            for await (const row of rowsOf(call, kind, consentIds)) {
              process.stdout.write(`${first ? '\n' : ',\n'}${JSON.stringify(row.record)}`);
              first = false;
            }
            process.stdout.write(first ? ']\n' : '\n]\n');
            return;
          }
          if (format === 'csv') {
            // Columns: the record id, its consent, then the fields of the first page's records.
            let columns: string[] | undefined;
            let page: ChannelOutput<'data:list'>['rows'] = [];
            const flush = () => {
              if (!columns) {
                columns = [...new Set(page.flatMap((r) => Object.keys(r.record)))];
                process.stdout.write(csvRows([['recordId', 'consentId', ...columns]]));
              }
              if (page.length)
                process.stdout.write(csvRows(page.map((r) => [r.recordId, r.consentId ?? '', ...columns!.map((c) => cell(r.record[c]))])));
              page = [];
            };
            for await (const row of rowsOf(call, kind, consentIds)) {
              page.push(row);
              if (page.length >= PAGE) flush();
            }
            flush();
            return;
          }
          const rows: Record<string, unknown>[] = [];
          let total = 0;
          for (const consentId of consentIds ?? [undefined]) {
            const page = await call('data:list', { kind, ...(consentId ? { consentId } : {}), page: 1, pageSize: Math.min(o.limit, PAGE) });
            total += page.total;
            for (const r of page.rows) if (rows.length < o.limit) rows.push({ consentId: r.consentId, ...r.record });
          }
          const columns = [
            'consentId',
            ...[...new Set(rows.flatMap((r) => Object.keys(r)))]
              .filter((c) => c !== 'consentId' && rows.some((r) => scalar(r[c])))
              .slice(0, 6),
          ];
          process.stdout.write(
            `${table(rows, columns)}\n${rows.length} of ${total}${rows.length < total ? ' (--format csv|json for every row)' : ''}\n`,
          );
        });
      },
    );
}

async function sync(program: Command, o: { consent?: string; full?: boolean }): Promise<void> {
  if (o.consent) identifier(o.consent, 'Consent id');
  if (o.consent && o.full)
    throw new Exit(EXIT.usage, '--full reads every consent again; a --consent sync always reads all of its records.');
  await withChannels(program, async (call) => {
    const { jobId } = await call(
      'data:sync',
      o.consent ? { consentIds: [o.consent] } : { allActive: true, ...(o.full ? { full: true } : {}) },
    );
    for (;;) {
      const job = (await call('jobs:list', {})).find((j) => j.jobId === jobId);
      if (job && (job.state === 'finished' || job.state === 'failed' || job.state === 'cancelled' || job.state === 'interrupted')) {
        process.stdout.write(`${JSON.stringify({ state: job.state, records: job.counts, message: job.message }, null, 2)}\n`);
        if (job.state !== 'finished') throw new Exit(EXIT.error);
        return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  });
}
