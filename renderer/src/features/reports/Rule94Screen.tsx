import { Alert, Anchor, Badge, Button, Code, Group, Menu, Modal, Select, SimpleGrid, Stack, Table, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { FigureRecords, Rule94Report } from '../../../../shared/ipc/contract.js';
import {
  ANSWER_FIELDS,
  ANSWER_MAX,
  halfYear,
  halfYearOf,
  previousHalfYear,
  signOffProblems,
  type Answers,
} from '../../../../shared/reports/rule94.js';
import { useClient } from '../../bridge/ClientContext.js';
import { dayText } from '../../ui/days.js';
import { DialogFooter } from '../../ui/DialogFooter.js';
import { useExport } from '../../ui/export.js';
import { Panel } from '../../ui/Panel.js';
import { ScreenHeader } from '../../ui/ScreenHeader.js';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states.js';
import { TableHead } from '../../ui/TableHead.js';
import { Time } from '../../ui/Time.js';
import { Unavailable } from '../../ui/Unavailable.js';
import { eventsLink } from '../events/index.js';
import { useCan } from '../status/can.js';
import { CountsTable } from './CountsTable.js';

const LIST_KEY = 'biannual:list';
const GET_KEY = 'biannual:get';

/** Where a figure's records are, for the report's half-year. */
function recordsLink(records: FigureRecords, r: Rule94Report): string {
  switch (records.screen) {
    case 'events':
      return eventsLink('/events', { types: records.types, from: r.from, to: r.to });
    case 'audit':
      return `/audit?${new URLSearchParams({ action: records.action, from: r.from, to: r.to }).toString()}`;
    case 'complaints':
      return `/complaints?${new URLSearchParams({
        from: r.firstDay,
        to: r.lastDay,
        ...(records.category ? { category: records.category } : {}),
        ...(records.status ? { status: records.status } : {}),
      }).toString()}`;
    case 'consents':
      return '/consents';
  }
}

/**
 * The rule 9.4 reports (issue 38): one per half-year in Australian time, made by the console on
 * the first day after it and due 30 days later. Each figure says how it was counted and opens its
 * records; a compliance officer answers what the console cannot know, counts again while it is a
 * draft, and signs it off, which archives it with its SHA-256 (also in the audit log). Exports as a
 * printable page (print it to PDF) and as CSV.
 */
export function Rule94Screen() {
  const client = useClient();
  const [params, setParams] = useSearchParams();
  const list = useQuery({ queryKey: [LIST_KEY], queryFn: () => client.biannualList({}) });
  const chosen = params.get('period') ?? list.data?.reports[0]?.period ?? null;
  const report = useQuery({
    queryKey: [GET_KEY, chosen],
    queryFn: () => client.biannualGet({ period: chosen! }),
    enabled: chosen !== null && (list.data?.reports.some((r) => r.period === chosen) ?? false),
  });
  const current = list.data?.current;
  const next = current ? halfYear(current.period) : null;

  return (
    <Stack gap="md" pb="xl">
      <ScreenHeader
        title="Rule 9.4 reports"
        back={{ to: '/reports', label: 'Compliance reports' }}
        description="The report an accredited data recipient gives the ACCC and the OAIC for each half-year (1 January – 30 June, 1 July – 31 December, Australian time): made by the console on the first day after it, due 30 days later."
        wrap
        actions={<PrepareEarlier made={list.data?.reports.map((r) => r.period) ?? []} onMade={(period) => setParams({ period })} />}
      />
      {list.error ? <ErrorState title="The reports could not be read" error={list.error} /> : null}
      {!list.data ? (
        <LoadingState label="Reading the reports…" />
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md" style={{ alignItems: 'start' }}>
          <Panel
            title="Half-years"
            label="Reports by half-year"
            description={
              next ? `This half-year, ${next.text}: its report is made on the day after, and due on ${dayText(next.dueOn)}.` : undefined
            }
          >
            {list.data.reports.length ? (
              <Table fz="sm" withTableBorder highlightOnHover aria-label="Rule 9.4 reports">
                <TableHead columns={['Half-year', 'State', 'Due']} />
                <Table.Tbody>
                  {list.data.reports.map((r) => (
                    <Table.Tr key={r.period}>
                      <Table.Td>
                        {/* The one shown: its name in bold, not a link to itself. */}
                        {r.period === chosen ? (
                          <Text size="sm" fw={700} aria-current="true">
                            {r.text}
                          </Text>
                        ) : (
                          <Anchor component={Link} to={`?period=${r.period}`} size="sm">
                            {r.text}
                          </Anchor>
                        )}
                      </Table.Td>
                      <Table.Td>{stateText(r)}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{dayText(r.dueOn)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : (
              <EmptyState title="No report yet">
                The first is made on the first day after a half-year ends. Prepare one for an earlier half-year from the cache as it is.
              </EmptyState>
            )}
          </Panel>
          <div style={{ gridColumn: 'span 2' }}>
            {report.error ? <ErrorState title="The report could not be read" error={report.error} /> : null}
            {chosen && !list.data.reports.some((r) => r.period === chosen) ? (
              <EmptyState title={`No report for ${halfYear(chosen)?.text ?? chosen}`}>
                A half-year’s report is made on the first day after it ends, once the cache has been synced since; an earlier one can be
                prepared above.
              </EmptyState>
            ) : report.data ? (
              <ReportDetail report={report.data} />
            ) : chosen && !report.error ? (
              <LoadingState label="Reading the report…" />
            ) : null}
          </div>
        </SimpleGrid>
      )}
    </Stack>
  );
}

/** A report's state in words: the list's, and the badge's. */
const stateText = (r: Pick<Rule94Report, 'state' | 'intact'>) =>
  r.state === 'draft' ? 'Draft' : r.intact ? 'Signed off' : 'Changed since signed';

function StateBadge({ report }: { report: Pick<Rule94Report, 'state' | 'intact'> }) {
  if (report.state === 'signed' && !report.intact)
    return (
      <Badge variant="filled" color="red">
        {stateText(report)}
      </Badge>
    );
  return (
    <Badge variant="light" color={report.state === 'draft' ? 'yellow' : 'teal'} c="var(--mantine-color-text)">
      {stateText(report)}
    </Badge>
  );
}

/** A half-year ended before the console made one: made now, by the person, from the cache as it is. */
function PrepareEarlier({ made, onMade }: { made: readonly string[]; onMade(period: string): void }) {
  const client = useClient();
  const queries = useQueryClient();
  const can = useCan('biannual:prepare');
  const options: { value: string; label: string }[] = [];
  for (let h = previousHalfYear(halfYearOf(new Date())), i = 0; i < 8; h = previousHalfYear(h), i++)
    if (!made.includes(h.id)) options.push({ value: h.id, label: h.text });
  const [period, setPeriod] = useState<string | null>(null);
  const prepare = useMutation({
    mutationFn: (p: string) => client.biannualPrepare({ period: p }),
    onSuccess: (r) => {
      void queries.invalidateQueries({ predicate: (q) => q.queryKey[0] === LIST_KEY || q.queryKey[0] === GET_KEY });
      notifications.show({ color: 'teal', title: 'Report prepared', message: `The rule 9.4 report for ${r.text} is a draft.` });
      setPeriod(null);
      onMade(r.period);
    },
    onError: (e) =>
      notifications.show({ color: 'red', title: 'The report was not prepared', message: (e as Error).message, autoClose: false }),
  });
  if (!options.length) return null;
  return (
    <Group gap="xs" align="end">
      <Select
        size="xs"
        w={220}
        label="An earlier half-year"
        placeholder="Choose a half-year"
        data={options}
        value={period}
        onChange={setPeriod}
        disabled={!can.allowed}
      />
      <Unavailable label="Prepare its report" reason={can.allowed ? null : can.reason}>
        <Button
          size="xs"
          variant="default"
          disabled={!can.allowed || !period}
          loading={prepare.isPending}
          onClick={() => period && prepare.mutate(period)}
        >
          Prepare its report
        </Button>
      </Unavailable>
    </Group>
  );
}

function ReportDetail({ report: r }: { report: Rule94Report }) {
  const client = useClient();
  const queries = useQueryClient();
  const canAnswer = useCan('biannual:answer');
  const canSign = useCan('biannual:signOff');
  const canExport = useCan('biannual:export');
  const [signing, setSigning] = useState(false);
  const refresh = () => void queries.invalidateQueries({ predicate: (q) => q.queryKey[0] === LIST_KEY || q.queryKey[0] === GET_KEY });
  const recount = useMutation({
    mutationFn: () => client.biannualRecount({ period: r.period, version: r.version }),
    onSuccess: () => {
      refresh();
      notifications.show({
        color: 'teal',
        title: 'Counted again',
        message: `The figures for ${r.text} are counted from the cache as it is now.`,
      });
    },
    onError: (e) => {
      refresh();
      notifications.show({ color: 'red', title: 'Not counted again', message: (e as Error).message, autoClose: false });
    },
  });
  const exportHtml = useExport(() => client.biannualExport({ period: r.period, format: 'html' }));
  const exportCsv = useExport(() => client.biannualExport({ period: r.period, format: 'csv' }));
  const draft = r.state === 'draft';
  const problems = signOffProblems(r.answers);

  return (
    <Stack gap="md">
      <Panel
        title={`Rule 9.4 report, ${r.text}`}
        label="The report"
        aside={
          <Group gap="xs">
            <StateBadge report={r} />
            {draft ? (
              <Unavailable label="Count again" reason={canAnswer.allowed ? null : canAnswer.reason}>
                <Button
                  size="xs"
                  variant="default"
                  disabled={!canAnswer.allowed}
                  loading={recount.isPending}
                  onClick={() => recount.mutate()}
                >
                  Count again
                </Button>
              </Unavailable>
            ) : null}
            {draft ? (
              <Unavailable label="Sign off…" reason={canSign.allowed ? null : canSign.reason}>
                <Button size="xs" disabled={!canSign.allowed} onClick={() => setSigning(true)}>
                  Sign off…
                </Button>
              </Unavailable>
            ) : null}
            <Unavailable label="Export" reason={canExport.allowed ? null : canExport.reason}>
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button size="xs" variant="default" disabled={!canExport.allowed} loading={exportHtml.busy || exportCsv.busy}>
                    Export
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => void exportHtml.run('csv')}>Printable report (HTML, print to PDF)</Menu.Item>
                  <Menu.Item onClick={() => void exportCsv.run('csv')}>CSV (spreadsheets)</Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Unavailable>
          </Group>
        }
      >
        <Stack gap={4}>
          <Text size="sm">
            Due on <strong>{dayText(r.dueOn)}</strong>. Made <Time iso={r.madeAt} /> by {r.madeBy}; figures counted{' '}
            <Time iso={r.countedAt} />.
          </Text>
          {r.state === 'signed' ? (
            <Text size="sm" data-testid="rule94-signed">
              Signed off <Time iso={r.signedAt} /> by {r.signedBy}, and archived: it cannot change. SHA-256 of what was signed, also in the
              audit log: <Code>{r.sha256}</Code>
            </Text>
          ) : null}
          {!r.intact ? (
            <Alert color="red" title="This report was changed after it was signed off">
              What is stored no longer hashes to the SHA-256 recorded at sign-off: compare it with the audit log’s entry and the exported
              files.
            </Alert>
          ) : null}
        </Stack>
      </Panel>
      <Panel title="Figures" label="Figures of the report" description="Counted by the console; each opens its records for the half-year.">
        <CountsTable
          label="Figures of the rule 9.4 report"
          columns={['Figure', 'Value', 'How it was counted']}
          rows={r.figures.map((f) => ({
            key: f.key,
            label: f.label,
            count: f.value,
            to: f.records && recordsLink(f.records, r),
            note: f.how,
          }))}
          testId={(key) => `rule94-${key}`}
        />
      </Panel>
      <AnswersForm
        key={`${r.period}-${r.version}`}
        report={r}
        editable={draft && canAnswer.allowed}
        reason={draft ? canAnswer.reason : null}
        onSaved={refresh}
      />
      <Modal opened={signing} onClose={() => setSigning(false)} title={`Sign off the report for ${r.text}?`} size="md">
        <SignOff report={r} problems={problems} onClose={() => setSigning(false)} onDone={refresh} />
      </Modal>
    </Stack>
  );
}

function SignOff({ report: r, problems, onClose, onDone }: { report: Rule94Report; problems: string[]; onClose(): void; onDone(): void }) {
  const client = useClient();
  const sign = useMutation({
    mutationFn: () => client.biannualSignOff({ period: r.period, version: r.version }),
    onSuccess: (signed) => {
      onDone();
      onClose();
      notifications.show({
        color: 'teal',
        title: 'Signed off',
        message: `The report for ${signed.text} is archived (SHA-256 ${signed.sha256?.slice(0, 12)}…).`,
      });
    },
    onError: () => onDone(),
  });
  return (
    <Stack gap="sm">
      <Text size="sm">
        Signing off archives the report as it is now: its figures and answers can no longer change, and the SHA-256 of what you sign goes
        into the audit log under your name.
      </Text>
      {problems.length ? (
        <Alert color="yellow" title="Answer these first" c="var(--mantine-color-text)">
          {problems.join(' ')}
        </Alert>
      ) : null}
      <DialogFooter
        mutation={sign}
        onCancel={onClose}
        action="Sign off and archive"
        disabled={problems.length > 0}
        onAction={() => sign.mutate()}
      />
    </Stack>
  );
}

function AnswersForm({
  report: r,
  editable,
  reason,
  onSaved,
}: {
  report: Rule94Report;
  editable: boolean;
  reason: string | null;
  onSaved(): void;
}) {
  const client = useClient();
  const [answers, setAnswers] = useState<Answers>(r.answers);
  const save = useMutation({
    mutationFn: () => client.biannualAnswer({ period: r.period, version: r.version, answers }),
    onSuccess: () => {
      onSaved();
      notifications.show({ color: 'teal', title: 'Answers saved', message: `The report for ${r.text} keeps your answers.` });
    },
    onError: () => onSaved(),
  });
  const changed = ANSWER_FIELDS.some((f) => (answers[f.key] ?? '') !== (r.answers[f.key] ?? ''));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Panel
      title="Answered by the recipient"
      label="Answers"
      description={
        r.state === 'signed'
          ? 'As signed off.'
          : 'What the console cannot know. The ones marked * must be answered before sign-off.' + (editable ? '' : ` ${reason ?? ''}`)
      }
    >
      <form onSubmit={submit}>
        <Stack gap="sm">
          {ANSWER_FIELDS.map((f) => (
            <Textarea
              key={f.key}
              label={f.label}
              description={f.help}
              withAsterisk={f.required}
              autosize
              minRows={f.lines}
              maxLength={ANSWER_MAX}
              readOnly={!editable}
              value={answers[f.key] ?? ''}
              onChange={(e) => setAnswers({ ...answers, [f.key]: e.currentTarget.value })}
            />
          ))}
          {editable ? <DialogFooter mutation={save} action="Save answers" disabled={!changed} /> : null}
        </Stack>
      </form>
    </Panel>
  );
}
