// A team server's core in its own process, on a team store (PostgreSQL) and a remote profile, for
// the tests that kill servers mid-bulk-revocation. With "start", it starts a bulk revocation of
// the given consents at RATE a second ("JOB <id>"); without, it resumes the jobs its jobs list
// offers as interrupted ("RESUMED <id>", retried while the killed holder's hold lingers; "NOTHING"
// when none is left). It prints "DONE <counts>" when a job finishes, "FAILED <message>" when one fails.
// Usage: bulk-child.ts DATA_DIR DATABASE_URL RATE [start ID,ID,...]
import type { Job } from '../../shared/ipc/contract.js';
import { startTeamCore } from './team-core.js';

const [dataDir, url, rate, mode, ids] = process.argv.slice(2) as [string, string, string, string | undefined, string | undefined];
const perSecond = Number(rate);
const { core, me } = await startTeamCore(dataDir, url);
const say = (line: string) => process.stdout.write(`${line}\n`);
core.events.subscribe((event, payload) => {
  if (event !== 'jobs:progress') return;
  const job = payload as Job;
  if (job.kind !== 'bulk-revoke') return;
  if (job.state === 'finished') say(`DONE ${JSON.stringify(job.counts)}`);
  if (job.state === 'failed') say(`FAILED ${job.message}`);
});
say(`READY ${me.id}`);

const call = async (channel: string, input: unknown) => {
  const r = await core.router.handle(channel, input, true);
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.value;
};

if (mode === 'start') {
  const { jobId } = (await call('bulk:revoke', { consentIds: ids!.split(','), reason: 'incident 19: bulk kills', perSecond })) as {
    jobId: string;
  };
  say(`JOB ${jobId}`);
} else {
  const end = Date.now() + 30_000;
  for (;;) {
    const jobs = (await call('jobs:list', {})) as Job[];
    const interrupted = jobs.find((j) => j.kind === 'bulk-revoke' && j.state === 'interrupted');
    const elsewhere = jobs.some((j) => j.kind === 'bulk-revoke' && j.state === 'running' && !core.jobs.find(j.jobId));
    if (interrupted) {
      try {
        await call('jobs:control', { jobId: interrupted.jobId, action: 'resume', perSecond });
        say(`RESUMED ${interrupted.jobId}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'BUSY') throw error;
      }
    } else if (!elsewhere) {
      say('NOTHING');
      break;
    }
    if (Date.now() > end) throw new Error('no job could be resumed within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}
