import { anchorProblem, unusableAnchor, type ChainProblem } from '../audit/chain.js';
import type { AnchorIncident, AuditAnchorFile } from '../audit/audit-anchor.js';
import type { Sql } from './db.js';

/**
 * The team audit chain's head anchor: a signed file outside the database (the data directory the
 * team's servers share), moved to the newest entry after each append, so deleting the newest
 * entries, or all of them, is found by `verify` even though what is left still links up. As in
 * solo mode (cache/audit-log.ts), a mismatch found when moving it is written into the anchor as an
 * incident first, and reported by every `verify` from then on.
 *
 * Several servers may move it: each write is atomic, and an anchor a step behind the table is not
 * a break (the entries after it chain to it).
 */
export class PgAuditAnchor {
  private expectMissing: boolean;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> = Promise.resolve();
  /** The last failure to write the anchor (recording actions goes on regardless). */
  error: string | null = null;

  constructor(
    private readonly sql: Sql,
    private readonly file: AuditAnchorFile,
    fresh: boolean,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.expectMissing = fresh;
  }

  private async head(): Promise<{ seq: number; hash: string }> {
    return (
      (await this.sql.one<{ seq: number; hash: string }>(
        "SELECT seq, hash FROM audit_log WHERE chain = 'team' ORDER BY seq DESC LIMIT 1",
      )) ?? {
        seq: 0,
        hash: '0'.repeat(64),
      }
    );
  }

  private async problemWith(a: { seq: number; hash: string }): Promise<ChainProblem | null> {
    if (a.seq === 0) return null;
    const row = await this.sql.one<{ hash: string }>("SELECT hash FROM audit_log WHERE chain = 'team' AND seq = $1", [a.seq]);
    return anchorProblem(a, await this.head(), row?.hash);
  }

  /** Moves the anchor to the newest committed entry (one move at a time). */
  update(): Promise<void> {
    this.running = this.running.then(() => this.move());
    return this.running;
  }

  /** An append committed: the anchor follows shortly, once for a burst of appends. */
  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.update();
    }, 50);
    this.timer.unref();
  }

  /** Before closing: the anchor moved now if an append is waiting for it. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.update();
    }
    await this.running;
  }

  private async move(): Promise<void> {
    try {
      // The anchor first, then the table: another server anchors only what it has committed.
      const read = this.file.read();
      const head = await this.head();
      let incidents: AnchorIncident[] = [];
      let problem: ChainProblem | null;
      if (read.state === 'valid') {
        incidents = read.anchor.incidents;
        problem = await this.problemWith(read.anchor);
        if (!problem && read.anchor.seq === head.seq && read.anchor.hash === head.hash) return;
        // Another server moved it past what this one read as the head: leave it.
        if (!problem && read.anchor.seq > head.seq) return;
      } else problem = unusableAnchor(read.state === 'missing' ? null : read.why, this.expectMissing);
      if (problem) incidents = [...incidents, { found: this.now().toISOString(), seq: problem.seq, problem: problem.text }];
      this.file.write({ seq: head.seq, hash: head.hash, incidents });
      this.expectMissing = false;
      this.error = null;
    } catch (error) {
      this.error = `the head anchor could not be written: ${(error as Error).message}`;
    }
  }

  /** The anchor's problems for `verify`: incidents recorded earlier, and the anchor against the table now. */
  async problems(): Promise<ChainProblem[]> {
    await this.running;
    const read = this.file.read();
    const problems: ChainProblem[] = [];
    if (read.state === 'valid') {
      for (const i of read.anchor.incidents)
        problems.push({ seq: i.seq, text: `${i.problem} (found ${i.found}; entries recorded since are checked)` });
      const p = await this.problemWith(read.anchor);
      if (p) problems.push(p);
    } else {
      const p = unusableAnchor(read.state === 'missing' ? null : read.why, this.expectMissing);
      if (p) problems.push(p);
    }
    return problems;
  }
}
