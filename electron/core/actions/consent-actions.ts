import { decodeJwt, decodeProtectedHeader } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import type { IpcErrorCode } from '../../../shared/ipc/errors.js';
import type { Consent, ConsentEvent } from '../../../shared/schemas/consent.js';
import type { EventsRepo } from '../cache/events-repo.js';
import { contentId } from '../sync/consent-sync.js';
import { CoreError } from '../../ipc/router.js';
import type { ConsentChangeRequest, ConsentClient } from '../api/consent-client.js';
import { ApiError } from '../api/errors.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { ConsentsRepo } from '../cache/consents-repo.js';
import type { Db } from '../cache/db.js';
import { describeOperator, type Operator } from '../operator.js';
import { sleep } from '../jobs/jobs.js';

/**
 * What support staff do to consents: revoke (with a reason), update, extend or authorise, and
 * revoke in bulk. Every action is online-only; on success the cache is refreshed from the API and
 * the audit entry is written in the same transaction. Failed attempts are audited too.
 */
export interface ActionDeps {
  db: Db;
  client: ConsentClient;
  consents: ConsentsRepo;
  /** Where the consent's own events go after an action (the timeline shows REVOKED at once); optional for callers without one. */
  events?: EventsRepo;
  audit: AuditLog;
  operator: () => Operator;
  now?: () => Date;
}

export type RevokeResult = { outcome: 'revoked' | 'already-inactive'; consent: Consent };

export interface DecodedResponse {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** What looks wrong before sending it: expired, no code, no state… */
  problems: string[];
}

export interface BulkItem {
  seq: number;
  consentId: string;
  status: 'pending' | 'revoked' | 'already-inactive' | 'failed';
  detail: string | null;
}

const OFFLINE_HINT = 'Nothing was changed; try again when the intermediary can be reached.';

export function checkReason(reason: string): string {
  const clean = reason.trim();
  if (clean.length < 3) throw new CoreError('INVALID_INPUT', 'A reason is required (at least 3 characters): it goes into the audit log.');
  if (clean.length > 500) throw new CoreError('INVALID_INPUT', 'The reason is too long (500 characters at most).');
  return clean;
}

/** An API failure as the operator should read it, with the IPC code the UI switches on. */
export function describeFailure(error: unknown, action: string): CoreError {
  if (!(error instanceof ApiError)) return new CoreError('INTERNAL', `${action} failed: ${(error as Error).message}`);
  const codes: Partial<Record<ApiError['kind'], IpcErrorCode>> = {
    Network: 'OFFLINE',
    Unauthorized: 'UNAUTHORIZED',
    Forbidden: 'FORBIDDEN',
    NotFound: 'NOT_FOUND',
    Schema: 'SCHEMA',
  };
  const code = codes[error.kind] ?? 'UPSTREAM';
  if (error.outcomeUnknown)
    return new CoreError(
      error.kind === 'Network' ? 'OFFLINE' : 'UPSTREAM',
      `The ${action} was sent but its answer was lost, and the consent could not be re-read: it may or may not have taken effect. Open the consent again (or sync) to see its state before trying again.`,
    );
  if (error.kind === 'Network') return new CoreError('OFFLINE', `You are offline: the ${action} was not sent. ${OFFLINE_HINT}`);
  const detail = error.details.length ? `: ${error.details.join('; ')}` : '';
  return new CoreError(
    code,
    `${action} refused by the intermediary (${error.status ?? error.kind})${detail}${error.requestId ? ` [request ${error.requestId}]` : ''}`,
  );
}

export interface CreateConsentInput {
  useCaseId: string;
  dataHolderBrandId: string;
  sharingEndDate: string;
  consumerEmail?: string | undefined;
  consumerId?: string | undefined;
  externalId?: string | undefined;
  postUsageAction?: 'DELETION' | 'DE_IDENTIFICATION' | undefined;
  directMarketingAllowed?: boolean | undefined;
}

export class ConsentActions {
  private readonly now: () => Date;
  /** The state of each authorization this console started, by state: which consent, and when it expires. */
  private readonly authorizations = new Map<string, { consentId: string; expiry: string | null; uri: string | null }>();

  /** Whether this exact URL is an authorization URI the intermediary gave this console (the shell may open it). */
  issuedLink(url: string): boolean {
    for (const a of this.authorizations.values()) if (a.uri === url) return true;
    return false;
  }
  constructor(private readonly deps: ActionDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  private operator(): string {
    return describeOperator(this.deps.operator());
  }

  /**
   * Re-reads a consent, and its events (so the timeline shows what the action caused at once, not
   * after the next sync), and stores them with the audit entry in one transaction. The events are a
   * courtesy: if they cannot be read, the next sync brings them.
   */
  private async refreshAndAudit(consentId: string, audit: { action: string; reason: string | null; result: string }): Promise<Consent> {
    const consent = await this.deps.client.getConsent(consentId);
    const events: ConsentEvent[] = [];
    if (this.deps.events) {
      try {
        for await (const page of this.deps.client.listEventPages({ filter: { consentId }, pageSize: 500 })) events.push(...page.items);
      } catch {
        events.length = 0;
      }
    }
    this.deps.db.transaction(() => {
      const now = this.now().toISOString();
      this.deps.consents.upsertPage([consent], now);
      if (events.length) this.deps.events!.upsertPage(events, contentId);
      this.deps.audit.append({ operator: this.operator(), target: consentId, ...audit });
    })();
    return consent;
  }

  private auditFailure(action: string, consentId: string | null, reason: string | null, error: CoreError): never {
    this.deps.audit.append({ operator: this.operator(), action, target: consentId, reason, result: `failed: ${error.message}` });
    throw error;
  }

  async revoke(consentId: string, reason: string): Promise<RevokeResult> {
    const why = checkReason(reason);
    let outcome: RevokeResult['outcome'];
    try {
      outcome = await this.deps.client.revokeConsent(consentId);
    } catch (error) {
      return this.auditFailure('revoke', consentId, why, describeFailure(error, 'revocation'));
    }
    // 422: the consent was already inactive at the data holder; the cache catches up either way.
    const consent = await this.refreshAndAudit(consentId, {
      action: 'revoke',
      reason: why,
      result: outcome === 'revoked' ? 'revoked' : 'already inactive at the data holder',
    });
    return { outcome, consent };
  }

  async update(consentId: string, change: ConsentChangeRequest, reason?: string): Promise<Consent> {
    const why = reason?.trim() || null;
    const fields = Object.keys(change).join(', ');
    try {
      await this.deps.client.updateConsent(consentId, change);
    } catch (error) {
      return this.auditFailure('update', consentId, why, describeFailure(error, 'update'));
    }
    return this.refreshAndAudit(consentId, { action: 'update', reason: why, result: `updated ${fields}: ${JSON.stringify(change)}` });
  }

  /** Starts a creation (REQUESTED) or an extension (ACTIVE): the URI the consumer must visit, and its expiry. */
  async startAuthorization(consentId: string, input: { redirectUri: string; sharingEndDate?: string }) {
    const state = randomBytes(16).toString('base64url');
    try {
      const auth = await this.deps.client.startAuthorization(consentId, { state, ...input });
      this.authorizations.set(state, { consentId, expiry: auth.expiry ?? null, uri: auth.uri ?? null });
      this.deps.audit.append({
        operator: this.operator(),
        action: 'start-authorization',
        target: consentId,
        reason: null,
        result: `authorization URI issued, expires ${auth.expiry ?? 'unknown'}`,
      });
      return { uri: auth.uri ?? '', expiry: auth.expiry ?? null, state };
    } catch (error) {
      return this.auditFailure('start-authorization', consentId, null, describeFailure(error, 'authorization request'));
    }
  }

  /** Creates a consent (REQUESTED) for a consumer, a use case and a data holder; authorise it next. */
  async create(input: CreateConsentInput): Promise<Consent> {
    const body = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== ''));
    let consent: Consent;
    try {
      consent = await this.deps.client.createConsent(body);
    } catch (error) {
      return this.auditFailure('create', null, null, describeFailure(error, 'consent creation'));
    }
    this.deps.db.transaction(() => {
      this.deps.consents.upsertPage([consent], this.now().toISOString());
      this.deps.audit.append({
        operator: this.operator(),
        action: 'create',
        target: consent.consentId,
        reason: null,
        result: `consent created (${consent.status ?? 'no status'}) for use case ${input.useCaseId} at data holder ${input.dataHolderBrandId}`,
      });
    })();
    return consent;
  }

  /**
   * Decodes a data holder response JWT without trusting it: what it holds, and what looks wrong —
   * expired, no code, a state this console did not issue, or one it issued for another consent.
   */
  decodeResponse(jwt: string, consentId?: string): DecodedResponse {
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      header = decodeProtectedHeader(jwt.trim()) as Record<string, unknown>;
      claims = decodeJwt(jwt.trim()) as Record<string, unknown>;
    } catch (error) {
      throw new CoreError('INVALID_INPUT', `This is not a JWT: ${(error as Error).message}`);
    }
    const problems: string[] = [];
    if (typeof claims.exp !== 'number') problems.push('It has no expiry (exp).');
    else if (claims.exp * 1000 < this.now().getTime()) problems.push(`It expired at ${new Date(claims.exp * 1000).toISOString()}.`);
    if (typeof claims.code !== 'string') problems.push('It carries no authorization code (code).');
    if (typeof claims.state !== 'string') problems.push('It carries no state.');
    if (typeof claims.iss !== 'string') problems.push('It does not say who issued it (iss).');
    if (consentId && typeof claims.state === 'string') {
      const started = this.authorizations.get(claims.state);
      if (!started) problems.push('Its state does not match an authorization started from this console (state mismatch).');
      else if (started.consentId !== consentId) problems.push(`It answers the authorization of another consent (${started.consentId}).`);
    }
    return { header, claims, problems };
  }

  async completeAuthorization(consentId: string, jwt: string): Promise<Consent> {
    this.decodeResponse(jwt); // a clear error for something that is not a JWT at all
    try {
      await this.deps.client.completeAuthorization(consentId, jwt.trim());
    } catch (error) {
      return this.auditFailure('complete-authorization', consentId, null, describeFailure(error, 'authorization'));
    }
    return this.refreshAndAudit(consentId, {
      action: 'complete-authorization',
      reason: null,
      result: 'consent authorised at the data holder',
    });
  }

  // ---- bulk revocation: a job of items, processed at a limited rate, resumable after a crash

  createBulkRevoke(consentIds: readonly string[], reason: string): string {
    const why = checkReason(reason);
    const ids = [...new Set(consentIds.map((i) => i.trim()).filter(Boolean))];
    if (ids.length === 0) throw new CoreError('INVALID_INPUT', 'No consent ids to revoke.');
    if (ids.length > 10_000) throw new CoreError('INVALID_INPUT', 'At most 10,000 consents per bulk revocation.');
    const jobId = randomUUID();
    this.deps.db.transaction(() => {
      this.deps.db
        .prepare('INSERT INTO action_jobs (job_id, kind, created, operator, reason) VALUES (?, ?, ?, ?, ?)')
        .run(jobId, 'bulk-revoke', this.now().toISOString(), this.operator(), why);
      const insert = this.deps.db.prepare('INSERT INTO action_job_items (job_id, seq, consent_id) VALUES (?, ?, ?)');
      ids.forEach((id, i) => insert.run(jobId, i + 1, id));
    })();
    return jobId;
  }

  bulkItems(jobId: string): BulkItem[] {
    return this.deps.db
      .prepare<[string], BulkItem>(
        'SELECT seq, consent_id AS consentId, status, detail FROM action_job_items WHERE job_id = ? ORDER BY seq',
      )
      .all(jobId);
  }

  /** Jobs with items still pending: what a restart should offer to resume. */
  pendingBulkJobs(): string[] {
    return this.deps.db
      .prepare<[], { job_id: string }>("SELECT DISTINCT job_id FROM action_job_items WHERE status = 'pending'")
      .all()
      .map((r) => r.job_id);
  }

  /** The job's reason and creation details, or undefined. */
  bulkJob(jobId: string): { reason: string; created: string; operator: string } | undefined {
    return this.deps.db
      .prepare<[string], { reason: string; created: string; operator: string }>(
        "SELECT reason, created, operator FROM action_jobs WHERE job_id = ? AND kind = 'bulk-revoke'",
      )
      .get(jobId);
  }

  /** Items of a job, a window at a time (the results table). */
  bulkItemsWindow(jobId: string, offset: number, limit: number): { items: BulkItem[]; total: number } {
    const items = this.deps.db
      .prepare<[string, number, number], BulkItem>(
        'SELECT seq, consent_id AS consentId, status, detail FROM action_job_items WHERE job_id = ? ORDER BY seq LIMIT ? OFFSET ?',
      )
      .all(jobId, limit, offset);
    const total = this.deps.db
      .prepare<[string], { n: number }>('SELECT count(*) AS n FROM action_job_items WHERE job_id = ?')
      .get(jobId)!.n;
    return { items, total };
  }

  /** How many items of a job have each status. */
  bulkCounts(jobId: string): Record<BulkItem['status'], number> {
    const counts: Record<BulkItem['status'], number> = { pending: 0, revoked: 0, 'already-inactive': 0, failed: 0 };
    for (const r of this.deps.db
      .prepare<[string], { status: BulkItem['status']; n: number }>(
        'SELECT status, count(*) AS n FROM action_job_items WHERE job_id = ? GROUP BY status',
      )
      .all(jobId))
      counts[r.status] = r.n;
    return counts;
  }

  /**
   * Processes the job's pending items in order (all of them on a first run; the rest after a crash
   * or a pause), one at a time, at most `perSecond` a second — read before each item, so the rate can
   * change while it runs. Going offline stops the run with the rest still pending, to resume later.
   */
  async runBulkRevoke(
    jobId: string,
    opts: {
      perSecond?: number | (() => number);
      signal?: AbortSignal;
      onItem?: (item: BulkItem) => void;
      /** Resolves when the job may go on (a paused job waits here). */
      whilePaused?: () => Promise<void>;
    } = {},
  ): Promise<BulkItem[]> {
    const job = this.bulkJob(jobId);
    if (!job) throw new CoreError('NOT_FOUND', `No bulk revocation ${jobId}.`);
    const rate = () => (typeof opts.perSecond === 'function' ? opts.perSecond() : (opts.perSecond ?? 5));
    const setItem = this.deps.db.prepare('UPDATE action_job_items SET status = ?, detail = ? WHERE job_id = ? AND seq = ?');
    let last = 0;
    for (const item of this.bulkItems(jobId).filter((i) => i.status === 'pending')) {
      await opts.whilePaused?.();
      if (opts.signal?.aborted) break;
      const wait = last + 1000 / rate() - Date.now();
      if (wait > 0) await sleep(wait, opts.signal);
      if (opts.signal?.aborted) break;
      last = Date.now();
      let status: BulkItem['status'];
      let detail: string | null = null;
      try {
        status = (await this.revoke(item.consentId, job.reason)).outcome;
      } catch (error) {
        status = 'failed';
        detail = (error as Error).message;
        if (error instanceof CoreError && error.code === 'OFFLINE') {
          // Offline: stop here; this item and the rest stay pending for a resume.
          opts.onItem?.({ ...item, status: 'pending', detail });
          break;
        }
      }
      setItem.run(status, detail, jobId, item.seq);
      opts.onItem?.({ ...item, status, detail });
    }
    return this.bulkItems(jobId);
  }
}
