/**
 * Fault injection, so clients can be tested against a misbehaving intermediary: latency, 5xx,
 * 429 with Retry-After, dropped connections, malformed and truncated JSON, a connection reset in
 * the middle of the body, and an answer lost after the request took effect; at a rate or on the
 * next N requests, optionally only for paths starting with a prefix.
 *
 * SPEC (--faults): rules separated by commas, each KIND[=VALUE]:TRIGGER[:PATH_PREFIX]
 *   KIND     latency=MS | 500 | 502 | 503 | 429=RETRY_AFTER_SECONDS | drop | malformed | truncated
 *            | reset (headers and half the body sent, then the connection is destroyed)
 *            | drop-after (the request is carried out, then the connection is dropped unanswered)
 *   TRIGGER  pRATE (e.g. p0.2) | nCOUNT (the next COUNT matching requests)
 *   PATH_PREFIX  matched against the path and its query: /consents/v2?page=3& is one page of the list;
 *            with a method before it, only that method's requests: "DELETE /consents/ID"
 *   e.g.  --faults "429=2:n3:/consents/v2,latency=250:p0.5,drop:n1:/consents/events"
 */
export type FaultKind = 'latency' | 'status' | 'drop' | 'malformed' | 'truncated' | 'reset' | 'drop-after';

/** Body faults: the answer is sent, but spoiled. */
export type BodyFaultKind = 'malformed' | 'truncated' | 'reset';

export interface FaultRule {
  kind: FaultKind;
  /** Latency in ms, the HTTP status, or Retry-After seconds for 429. */
  value?: number;
  status?: number;
  rate?: number;
  remaining?: number;
  path?: string;
}

export class FaultSpecError extends Error {}

export function parseFaultRule(text: string): FaultRule {
  const [head = '', trigger = '', path] = text.trim().split(':');
  const [kindText = '', valueText] = head.split('=');
  const rule: FaultRule = { kind: 'status' };
  if (kindText === 'latency') {
    rule.kind = 'latency';
    rule.value = Number(valueText);
    if (!Number.isFinite(rule.value) || rule.value < 0)
      throw new FaultSpecError(`latency needs milliseconds, e.g. latency=250 (in "${text}")`);
  } else if (['drop', 'malformed', 'truncated', 'reset', 'drop-after'].includes(kindText)) rule.kind = kindText as FaultKind;
  else if (/^(429|5\d\d)$/.test(kindText)) {
    rule.status = Number(kindText);
    if (rule.status === 429) rule.value = valueText === undefined ? 1 : Number(valueText);
  } else
    throw new FaultSpecError(
      `unknown fault "${kindText}" in "${text}" (latency=MS, 500, 502, 503, 429=SECONDS, drop, malformed, truncated, reset, drop-after)`,
    );
  if (/^p(0(\.\d+)?|1(\.0+)?)$/.test(trigger)) rule.rate = Number(trigger.slice(1));
  else if (/^n\d+$/.test(trigger)) rule.remaining = Number(trigger.slice(1));
  else throw new FaultSpecError(`a fault needs a trigger pRATE or nCOUNT (in "${text}")`);
  if (path) rule.path = path;
  return rule;
}

export function parseFaultSpec(spec: string): FaultRule[] {
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseFaultRule);
}

/** How a fired rule is counted: its status (500, 429…) or its kind. */
export const faultLabel = (rule: FaultRule): string => (rule.kind === 'status' ? String(rule.status) : rule.kind);

export class Faults {
  rules: FaultRule[] = [];
  /** Faults fired so far, by label, and the requests they were picked for (admin status). */
  fired: Record<string, number> = {};
  requests = 0;
  /** Requests that got at least one fault other than latency. */
  faulted = 0;
  /** The latest API requests, "METHOD /path?query", oldest first (admin: GET /__sandbox/requests). */
  log: string[] = [];

  /**
   * The faults that fire for this request. Latency and body faults combine; of the faults that end
   * the request (a status, a dropped connection) only the first matching one fires, and a counted
   * rule is used up only when it fires, so "503:n1,drop:n1" fails two requests, one way each.
   */
  pick(path: string, method = 'GET'): FaultRule[] {
    const fired: FaultRule[] = [];
    let ended = false;
    this.requests++;
    this.log.push(`${method} ${path}`);
    if (this.log.length > 5000) this.log.splice(0, 1000);
    for (const rule of this.rules) {
      if (rule.path && !(rule.path.includes(' ') ? `${method} ${path}` : path).startsWith(rule.path)) continue;
      const ends = rule.kind === 'status' || rule.kind === 'drop' || rule.kind === 'drop-after';
      if (ends && ended) continue;
      if (rule.remaining !== undefined) {
        if (rule.remaining <= 0) continue;
        rule.remaining--;
      } else if (rule.rate === undefined || Math.random() >= rule.rate) continue;
      fired.push(rule);
      this.fired[faultLabel(rule)] = (this.fired[faultLabel(rule)] ?? 0) + 1;
      if (ends) ended = true;
    }
    if (fired.some((r) => r.kind !== 'latency')) this.faulted++;
    this.rules = this.rules.filter((r) => r.remaining === undefined || r.remaining > 0);
    return fired;
  }
}
