import { Option, type Command } from 'commander';
import { ALERT_KINDS, HOLDER_KINDS, type AlertKind } from '../../shared/alerts/alerts.js';
import { complaintReference } from '../../shared/complaints/complaints.js';
import { positiveInt, table } from './common.js';
import { withChannels } from './channels.js';

/**
 * `cli alerts list|add|remove|test` and `cli complaints`: the alert rules and the complaints
 * register for scripts, through the contract's channels (issue 38; the same role and input checks
 * on this machine and, with --server, on a team server).
 */
export function addAlertCommands(program: Command): void {
  const alerts = program.command('alerts').description('alert rules and the alerts they raise');
  alerts
    .command('list')
    .description('the rules, then the alerts (firing first)')
    .option('--json', 'one JSON object: { rules, alerts }')
    .action(async (o: { json?: boolean }) =>
      withChannels(program, async (call) => {
        const [rules, { alerts: raised }] = await Promise.all([call('alerts:rules', {}), call('alerts:list', { limit: 100 })]);
        if (o.json) return void process.stdout.write(`${JSON.stringify({ rules, alerts: raised }, null, 2)}\n`);
        const ruleRows = rules.map((r) => ({
          id: r.id,
          rule: r.text,
          silenced: r.silenced ? `until ${r.silencedUntil} (${r.silenceReason})` : '',
        }));
        process.stdout.write(`Rules (${rules.length}):\n${rules.length ? table(ruleRows, ['id', 'rule', 'silenced']) : '  none'}\n\n`);
        const alertRows = raised.map((a) => ({
          state: a.state,
          title: a.title,
          summary: a.summary,
          since: a.firstAt,
          acknowledged: a.acknowledgedBy ?? '',
        }));
        process.stdout.write(
          `Alerts (${raised.length}):\n${raised.length ? table(alertRows, ['state', 'title', 'summary', 'since', 'acknowledged']) : '  none'}\n`,
        );
      }),
    );
  alerts
    .command('add <kind>')
    .description(`add a rule; KIND is one of ${ALERT_KINDS.join(', ')} (each parameter has a default)`)
    .addOption(new Option('--window-minutes <n>', 'the window counted back from now').argParser(positiveInt(1_000_000)))
    .addOption(new Option('--at-least <n>', 'fires at this many or more').argParser(positiveInt(1_000_000)))
    .addOption(new Option('--rate-percent <n>', 'webhook-failures: or this share of deliveries failing').argParser(positiveInt(1_000_000)))
    .addOption(new Option('--within-days <n>', 'expiring-consents: sharing ends within').argParser(positiveInt(1_000_000)))
    .addOption(new Option('--hours <n>', 'sync-stale: no good sync for').argParser(positiveInt(1_000_000)))
    .option('--data-holder <id>', `${HOLDER_KINDS.join(', ')}: only the consents at this data holder (its brand id)`)
    .action(
      async (
        kind: string,
        o: { windowMinutes?: number; atLeast?: number; ratePercent?: number; withinDays?: number; hours?: number; dataHolder?: string },
      ) =>
        withChannels(program, async (call) => {
          const { dataHolder, ...numbers } = o;
          const params = Object.fromEntries(Object.entries(numbers).filter(([, v]) => v !== undefined));
          const rule = await call('alerts:addRule', {
            kind: kind as AlertKind,
            params,
            ...(dataHolder !== undefined ? { dataHolderBrandId: dataHolder } : {}),
            enabled: true,
          });
          process.stdout.write(`Added ${rule.id}: ${rule.text}\n`);
        }),
    );
  alerts
    .command('remove <id>')
    .description('remove a rule and its alerts')
    .action(async (id: string) =>
      withChannels(program, async (call) => {
        const { removed } = await call('alerts:removeRule', { id });
        process.stdout.write(removed ? `Removed ${id}.\n` : `There is no rule ${id}.\n`);
      }),
    );
  alerts
    .command('test')
    .description('check every rule now; print what each did to its alert')
    .action(async () =>
      withChannels(program, async (call) => {
        const [rules, done] = await Promise.all([call('alerts:rules', {}), call('alerts:evaluate', {})]);
        const text = new Map(rules.map((r) => [r.id, r.text]));
        const rows = done.map((t) => ({ rule: text.get(t.ruleId) ?? t.ruleId, outcome: t.outcome, found: t.summary ?? '' }));
        process.stdout.write(rows.length ? `${table(rows, ['rule', 'outcome', 'found'])}\n` : 'No rule to check.\n');
      }),
    );

  program
    .command('complaints')
    .description('the complaints register (rule 9.3), newest received first')
    .option('--consent <id>', 'those about one consent')
    .option('--consumer <id>', 'those about one consumer')
    .addOption(new Option('--status <status>', 'open or resolved').choices(['open', 'resolved']))
    .option('--json', 'JSON rows')
    .action(async (o: { consent?: string; consumer?: string; status?: 'open' | 'resolved'; json?: boolean }) =>
      withChannels(program, async (call) => {
        const filter = {
          ...(o.consent ? { consentId: o.consent } : {}),
          ...(o.consumer ? { consumerId: o.consumer } : {}),
          ...(o.status ? { status: o.status } : {}),
        };
        const rows = [];
        for (let offset = 0; ; offset += 500) {
          const page = await call('complaints:list', { ...filter, offset, limit: 500 });
          rows.push(...page.rows);
          if (rows.length >= page.total || !page.rows.length) break;
        }
        if (o.json) return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        const view = rows.map((c) => ({
          reference: complaintReference(c.number),
          received: c.receivedOn,
          category: c.category,
          status: c.outcome ? `resolved (${c.outcome})` : 'open',
          consent: c.consentId ?? '',
          consumer: c.consumerId ?? '',
        }));
        process.stdout.write(
          view.length ? `${table(view, ['reference', 'received', 'category', 'status', 'consent', 'consumer'])}\n` : 'No complaint.\n',
        );
      }),
    );
}
