import { decodeJwt, decodeProtectedHeader } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import type { BulkItem } from '../../../shared/ipc/contract.js';
import type { IpcErrorCode } from '../../../shared/ipc/errors.js';
import type { Consent, ConsentEvent } from '../../../shared/schemas/consent.js';
import { CoreError } from '../errors.js';
import type { ConsentChangeRequest, ConsentClient } from '../api/consent-client.js';
import { ApiError } from '../api/errors.js';
import type { AuditStore } from '../audit/port.js';
import type { BulkItemState, BulkJob, BulkJobStore, BulkStatus } from '../jobs/port.js';
import { sleep } from '../jobs/jobs.js';
import { describeOperator, type Operator } from '../operator.js';
import type { ActionStore } from './port.js';

/**
 * What support staff do to consents: revoke (with a reason), update, extend or authorise, and
 * revoke in bulk. Every action is online-only; on success the cache is refreshed from the API and
 * the audit entry is written in the same transaction. Failed attempts are audited too.
 */
export interface ActionDeps {
  client: ConsentClient;
  /** Where an action's change goes, with its audit entry, in one transaction. */
  store: ActionStore;
  /** Bulk revocations, item by item. */
  bulk: BulkJobStore;
  /** Failed attempts are audited on their own. */
  audit: AuditStore;
  operator: () => Operator;
  now?: () => Date;
  /** Re-read the consent's events after an action (the timeline shows REVOKED at once); on by default. */
  refreshEvents?: boolean;
}

export type RevokeResult = {
  outcome: 'revoked' | 'already-inactive';
  consent: Consent;
  /** Revoked by staff before (another console, at the same moment or earlier): who, and when. */
  revokedBy?: { operator: string; at: string };
  /** Found REVOKED when a bulk job resumed after an interruption that may have come after its DELETE was sent. */
  confirmed?: boolean;
};

export interface DecodedResponse {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** What looks wrong before sending it: expired, no code, no state… */
  problems: string[];
}

export type { BulkItem };

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
    if (this.deps.refreshEvents !== false) {
      try {
        for await (const page of this.deps.client.listEventPages({ filter: { consentId }, pageSize: 500 })) events.push(...page.items);
      } catch {
        events.length = 0;
      }
    }
    await this.deps.store.record({ consents: [consent], events, audit: { operator: this.operator(), target: consentId, ...audit } });
    return consent;
  }

  private async auditFailure(action: string, consentId: string | null, reason: string | null, error: CoreError): Promise<never> {
    await this.deps.audit.append({ operator: this.operator(), action, target: consentId, reason, result: `failed: ${error.message}` });
    throw error;
  }

  /**
   * Revokes a consent. One revocation of a consent at a time (the store's lock, across every team
   * server): one that was already revoked by staff is not sent again; the caller is told who
   * revoked it and when, and the attempt is audited.
   */
  async revoke(consentId: string, reason: string): Promise<RevokeResult> {
    const why = checkReason(reason);
    return this.deps.store.exclusive(`revoke:${consentId}`, () => this.revokeHeld(consentId, why));
  }

  /**
   * A revocation, under the consent's lock. For an item of a bulk job, the intent is recorded
   * before the DELETE is sent; an item whose intent an interrupted run left is never sent again
   * blindly: if that run recorded the revocation, it stands; if the intermediary shows the consent
   * REVOKED, that is recorded (confirmed after the interruption); only a consent still not revoked
   * gets its DELETE.
   */
  private async revokeHeld(consentId: string, why: string, item?: BulkItemState & { jobId: string }): Promise<RevokeResult> {
    // The consent's own entries (a few, oldest first): the staff revocation, however many refused attempts followed.
    const before = (await this.deps.audit.entries({ target: consentId })).find((e) => e.action === 'revoke' && e.result === 'revoked');
    if (item?.sentAt) {
      // The intent is recorded only after finding no revocation: one found now came after it, and
      // with this job's reason it is the interrupted run's own.
      if (before?.reason?.startsWith(why)) return { outcome: 'revoked', consent: await this.reread(consentId) };
      if (!before && (await this.reread(consentId)).status === 'REVOKED') {
        const consent = await this.refreshAndAudit(consentId, {
          action: 'revoke',
          reason: `${why} (${CONFIRMED})`,
          result: 'revoked',
        });
        return { outcome: 'revoked', consent, confirmed: true };
      }
    }
    if (before) {
      const consent = await this.refreshAndAudit(consentId, {
        action: 'revoke',
        reason: why,
        result: `not sent: already revoked by ${before.operator} at ${before.at}`,
      });
      return { outcome: 'already-inactive' as const, consent, revokedBy: { operator: before.operator, at: before.at } };
    }
    if (item && !(await this.deps.bulk.markSending(item.jobId, item.seq, this.now().toISOString()))) throw new ClaimLost();
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

  /** The consent as the intermediary has it now (an unreachable one reads as offline: the item stays pending). */
  private async reread(consentId: string): Promise<Consent> {
    try {
      return await this.deps.client.getConsent(consentId);
    } catch (error) {
      throw describeFailure(error, 'check of an interrupted revocation');
    }
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
      await this.deps.audit.append({
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
    await this.deps.store.record({
      consents: [consent],
      audit: {
        operator: this.operator(),
        action: 'create',
        target: consent.consentId,
        reason: null,
        result: `consent created (${consent.status ?? 'no status'}) for use case ${input.useCaseId} at data holder ${input.dataHolderBrandId}`,
      },
    });
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

  /** A new bulk revocation; `awaitingApprovalOf` (the asker's user id): it waits for a second person's decision. */
  async createBulkRevoke(consentIds: readonly string[], reason: string, awaitingApprovalOf?: string): Promise<string> {
    const why = checkReason(reason);
    const ids = [...new Set(consentIds.map((i) => i.trim()).filter(Boolean))];
    if (ids.length === 0) throw new CoreError('INVALID_INPUT', 'No consent ids to revoke.');
    if (ids.length > 10_000) throw new CoreError('INVALID_INPUT', 'At most 10,000 consents per bulk revocation.');
    const jobId = randomUUID();
    await this.deps.bulk.create({
      jobId,
      created: this.now().toISOString(),
      operator: this.operator(),
      reason: why,
      consentIds: ids,
      ...(awaitingApprovalOf ? { awaitingApprovalOf } : {}),
    });
    if (awaitingApprovalOf)
      await this.deps.audit.append({
        operator: this.operator(),
        action: 'bulk:approval-requested',
        target: jobId,
        reason: why,
        result: `${ids.length} consents; waiting for a second person's approval`,
      });
    return jobId;
  }

  /**
   * A second person's decision on a bulk revocation awaiting approval: never the asker's own.
   * Audited with both names. False when it was not awaiting one (decided already).
   */
  async decideBulk(jobId: string, decision: 'approve' | 'reject', reason: string | null): Promise<boolean> {
    const job = await this.deps.bulk.job(jobId);
    if (!job?.approval) throw new CoreError('NOT_FOUND', 'This bulk revocation does not wait for an approval.');
    const by = this.operator();
    const decided = await this.deps.bulk.decide(jobId, decision, by, this.now().toISOString());
    if (!decided) return false;
    const total = Object.values(await this.deps.bulk.counts(jobId)).reduce((a, b) => a + b, 0);
    await this.deps.audit.append({
      operator: by,
      action: decision === 'approve' ? 'bulk:approved' : 'bulk:rejected',
      target: jobId,
      reason,
      result: `${decision === 'approve' ? 'approved' : 'rejected'} the revocation of ${total} consents asked by ${job.operator}`,
    });
    return true;
  }

  /** Bulk revocations waiting for a second person's approval, oldest first. */
  bulkAwaitingApproval(): Promise<string[]> {
    return this.deps.bulk.awaitingApproval();
  }

  bulkItems(jobId: string): Promise<BulkItem[]> {
    return this.deps.bulk.items(jobId);
  }

  /** Jobs with items still pending: what a restart should offer to resume. */
  pendingBulkJobs(): Promise<string[]> {
    return this.deps.bulk.pendingJobs();
  }

  /** Who runs the job now when it is another team server (words), or undefined. */
  bulkHeldElsewhere(jobId: string): Promise<string | undefined> {
    return this.deps.bulk.heldElsewhere(jobId);
  }

  /** The job's reason and creation details, or undefined. */
  bulkJob(jobId: string): Promise<BulkJob | undefined> {
    return this.deps.bulk.job(jobId);
  }

  /** Items of a job, a window at a time (the results table). */
  bulkItemsWindow(jobId: string, offset: number, limit: number): Promise<{ items: BulkItem[]; total: number }> {
    return this.deps.bulk.window(jobId, offset, limit);
  }

  /** How many items of a job have each status. */
  bulkCounts(jobId: string): Promise<Record<BulkStatus, number>> {
    return this.deps.bulk.counts(jobId);
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
    const job = await this.bulkJob(jobId);
    if (!job) throw new CoreError('NOT_FOUND', `No bulk revocation ${jobId}.`);
    // Exactly one process runs a job (team servers share the store): it holds the job while it runs.
    if (!(await this.deps.bulk.claim(jobId))) {
      const by = await this.deps.bulk.heldElsewhere(jobId).catch(() => undefined);
      throw new CoreError('BUSY', `This bulk revocation is running on ${by ?? 'another team server'}; its progress shows here.`);
    }
    // A hold lost (another server took the job over) stops the run at once: never two runs of a job.
    const lost = new AbortController();
    const holding = setInterval(
      () =>
        void this.deps.bulk.claim(jobId).then(
          (held) => held || lost.abort(),
          () => undefined,
        ),
      CLAIM_RENEW_MS,
    );
    holding.unref();
    const signal = opts.signal ? AbortSignal.any([opts.signal, lost.signal]) : lost.signal;
    try {
      const items = await this.runClaimedBulk(jobId, job.reason, { ...opts, signal });
      if (!lost.signal.aborted) return items;
    } catch (error) {
      if (!(error instanceof ClaimLost)) throw error;
    } finally {
      clearInterval(holding);
      await this.deps.bulk.release(jobId).catch(() => undefined);
    }
    throw new CoreError(
      'BUSY',
      'This server lost its hold on the bulk revocation (another team server took it over): it stopped here, with nothing sent twice.',
    );
  }

  private async runClaimedBulk(
    jobId: string,
    reason: string,
    opts: Parameters<ConsentActions['runBulkRevoke']>[1] & { signal: AbortSignal },
  ): Promise<BulkItem[]> {
    const { signal } = opts;
    const rate = () => (typeof opts.perSecond === 'function' ? opts.perSecond() : (opts.perSecond ?? 5));
    let last = 0;
    for (const { seq, consentId } of (await this.bulkItems(jobId)).filter((i) => i.status === 'pending')) {
      await opts.whilePaused?.();
      if (signal.aborted) break;
      const wait = last + 1000 / rate() - Date.now();
      if (wait > 0) await sleep(wait, signal);
      if (signal.aborted) break;
      last = Date.now();
      const settled = await this.deps.store.exclusive(`revoke:${consentId}`, async () => {
        // Read again under the consent's lock: a run that held the job before may have settled the item since.
        const item = await this.deps.bulk.item(jobId, seq);
        if (item?.status !== 'pending') return undefined;
        let status: BulkStatus;
        let detail: string | null = null;
        try {
          const result = await this.revokeHeld(consentId, reason, { ...item, jobId });
          status = result.outcome;
          if (result.confirmed) detail = CONFIRMED;
        } catch (error) {
          if (error instanceof ClaimLost) throw error;
          status = 'failed';
          detail = (error as Error).message;
          // Offline: stop here; this item and the rest stay pending for a resume.
          if (error instanceof CoreError && error.code === 'OFFLINE') return { ...item, status: 'pending' as const, detail, offline: true };
        }
        await this.deps.bulk.setItem(jobId, seq, status, detail);
        return { seq, consentId, status, detail, offline: false };
      });
      if (!settled) continue;
      const { offline, ...outcome } = settled;
      opts.onItem?.({ seq: outcome.seq, consentId: outcome.consentId, status: outcome.status, detail: outcome.detail });
      if (offline) break;
    }
    return this.bulkItems(jobId);
  }
}

/** How often a running bulk job tells the store it is still running (the store's claim). */
const CLAIM_RENEW_MS = 10_000;

/** What the audit entry and the item say of a revocation found done after an interrupted run had sent it. */
const CONFIRMED = 'confirmed after an interruption: the intermediary showed it REVOKED';

/** This process no longer holds the bulk job: it must send nothing more. */
class ClaimLost extends Error {
  constructor() {
    super('The bulk job was taken over by another team server.');
  }
}
