import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeRemoteProfile } from '../helpers/remote.js';
import { fmtN, quantile, type RecordRow } from './stats.js';
import { Console, generator, kindsOf, startServer, type ServerProcess } from './team-readers.js';

/**
 * The browser host as a person runs it (dist/electron/host.mjs, as `npm run serve` does, its own
 * process), on an empty data directory whose profile is the benchmark's sandbox: its first sync at
 * start, then one console reading what the screens read (team-readers.ts kindsOf: windows of the
 * consents and events, searches, a timeline, the webhook failures, the compliance report) back to
 * back for `seconds`, from the moment the sync has ended. Measured on the host's process (Linux
 * /proc; the sync runs in a process of its own, measured by the sync rows):
 *
 * - its peak RSS (VmHWM) over the sync and the reads, and its steady RSS (the median of the last
 *   half of the reads), each beside the same host started again on the synced cache without
 *   syncing, reading the same for as long: what the reads alone cost;
 * - each kind's answers from the first second after the sync's end to the eleventh (a console opens
 *   on the host meanwhile) against the same kind settled (the last half of the reads): the slowest
 *   early answer, and the early answers' p95, each as a multiple of the settled p95.
 */
export interface HostMemoryOptions {
  sandboxUrl: string;
  consents: number;
  seconds: number;
  work: string;
  row: RecordRow;
}

interface Timed {
  at: number;
  kind: string;
  ms: number;
}

interface Session {
  peakMB: number;
  steadyMB: number;
  answers: Timed[];
  /** From the sync's end (or the host's start) to a console open on it. */
  openMs: number;
}

const now = () => performance.now();

/** `started`: when the host's first sync ended (or it started without one): every answer's time counts from there. */
async function readFor(host: ServerProcess, seconds: number, started: number): Promise<Session> {
  const c = await Console.open(host.launchUrl);
  const openMs = now() - started;
  const rss: { at: number; mb: number }[] = [];
  const sampler = setInterval(() => rss.push({ at: now() - started, mb: host.memory().rssMB }), 250);
  const answers: Timed[] = [];
  try {
    const kinds = await kindsOf(c);
    const random = generator(1);
    for (let n = 0; now() - started < seconds * 1000; n++) {
      const kind = kinds[n % kinds.length]!;
      const { ms } = await c.request(kind.channel, kind.input(random));
      answers.push({ at: now() - started, kind: kind.name, ms });
    }
  } finally {
    clearInterval(sampler);
    c.close();
  }
  const late = rss.filter((s) => s.at >= (seconds * 1000) / 2).map((s) => s.mb);
  return { peakMB: host.memory().peakMB, steadyMB: quantile(late.length ? late : [host.memory().rssMB], 0.5), answers, openMs };
}

export async function hostMemoryBench(o: HostMemoryOptions): Promise<void> {
  const dir = join(o.work, 'host-memory');
  mkdirSync(dir, { recursive: true });
  writeRemoteProfile(dir, o.sandboxUrl, { id: 'bench', name: 'Benchmark sandbox', scopes: [] });
  console.log(` the browser host: first sync at start, then ${o.seconds} s of reads`);
  // The host (syncing at start, or not), read for `seconds`, stopped.
  const session = async (sync: boolean) => {
    const host = await startServer('solo', dir, ['--profile', 'bench'], sync);
    try {
      return await readFor(host, o.seconds, now());
    } finally {
      await host.stop();
    }
  };
  const first = await session(true);
  console.log(`  peak ${Math.round(first.peakMB)} MiB, steady ${Math.round(first.steadyMB)} MiB; again on the synced cache, no sync`);
  const again = await session(false);
  const what = `the same host restarted on the synced cache without syncing, the same ${o.seconds} s of reads (MiB)`;
  const size = `${fmtN(o.consents)} consents`;
  o.row(`browser host: peak RSS, the first sync at start and ${o.seconds} s of reads (${size})`, [first.peakMB], 'MiB', {
    baseline: { what, values: [again.peakMB] },
    target: { on: 'value', op: '≤', limit: 400 },
    note: 'the sync runs in a process of its own (its peak: the sync rows); the host as npm run serve starts it (its launcher’s memory settings)',
  });
  o.row(`browser host: steady RSS, the last half of the reads after the first sync (${size})`, [first.steadyMB], 'MiB', {
    baseline: { what, values: [again.steadyMB] },
    target: { on: 'value', op: '≤', limit: 400 },
  });
  // Each kind's answers from the first second after the sync's end to the eleventh (the console
  // opened on it meanwhile), against the same kind settled: its slowest one against the settled p95,
  // and, like with like, its p95 there against the settled p95.
  const half = (o.seconds * 1000) / 2;
  const from = Math.min(1_000, half / 2);
  const firstWindow = Math.min(11_000, half);
  const furthest = (early: (ms: number[]) => number) => {
    let worst = { kind: '', ratio: 0, firstMs: 0, settledMs: 0, settledMax: 0 };
    for (const kind of new Set(first.answers.map((a) => a.kind))) {
      const soon = first.answers.filter((a) => a.kind === kind && a.at >= from && a.at < firstWindow).map((a) => a.ms);
      const settled = first.answers.filter((a) => a.kind === kind && a.at >= half).map((a) => a.ms);
      if (!soon.length || !settled.length) continue;
      const firstMs = early(soon);
      const settledMs = quantile(settled, 0.95);
      const ratio = firstMs / Math.max(settledMs, 1);
      if (ratio > worst.ratio) worst = { kind, ratio, firstMs, settledMs, settledMax: Math.max(...settled) };
    }
    return worst;
  };
  const window = `from ${from / 1000} s to ${firstWindow / 1000} s after it`;
  for (const [label, early] of [
    ['the slowest answer', (ms: number[]) => Math.max(...ms)],
    ['the p95 of the answers', (ms: number[]) => quantile(ms, 0.95)],
  ] as const) {
    const worst = furthest(early);
    o.row(`reads after the first sync: ${label} ${window} (${size})`, [worst.firstMs], 'ms', {
      baseline: { what: 'the same kind settled: p95 of the last half of the reads (ms)', values: [worst.settledMs] },
      target: { on: 'ratio', op: '≤', limit: 2 },
      note: `the kind furthest from settled: ${worst.kind} (its slowest settled answer: ${fmtN(Math.round(worst.settledMax))} ms); a console opened ${fmtN(Math.round(first.openMs))} ms after the sync's end (${fmtN(Math.round(again.openMs))} ms after a start without one)`,
    });
  }
}
