import { createHmac, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml } from '../../../shared/text/escape-html.js';
import type { AuditEntry } from '../audit/port.js';
import type { AlertMessage } from './service.js';

/**
 * Where alerts go besides the console's own notification centre (issue 38): e-mail over SMTP
 * (nodemailer) and a webhook (a JSON POST signed the Standard Webhooks way, with a Slack-compatible
 * `text`). The addresses live in the data directory (`alert-delivery.json`, shared by the servers
 * of a team that share it); the SMTP password and the webhook's signing secret in the vault. Each
 * delivery, sent or failed after its retries, is in the audit log.
 */
export const DELIVERY_FILE = 'alert-delivery.json';
export const SMTP_PASSWORD = 'alerts:smtp-password';
export const WEBHOOK_SECRET = 'alerts:webhook-secret';

export interface DeliveryConfig {
  email: { smtpUrl: string; from: string; to: string[] } | null;
  webhook: { url: string } | null;
  /** The console's address, for the links in messages (a team server's public URL); null: none. */
  consoleUrl: string | null;
}

export const NO_DELIVERY: DeliveryConfig = { email: null, webhook: null, consoleUrl: null };

export function readDelivery(dataDir: string): DeliveryConfig {
  const file = join(dataDir, DELIVERY_FILE);
  if (!existsSync(file)) return NO_DELIVERY;
  try {
    return { ...NO_DELIVERY, ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<DeliveryConfig>) };
  } catch {
    return NO_DELIVERY;
  }
}

export function writeDelivery(dataDir: string, config: DeliveryConfig): void {
  writeFileSync(join(dataDir, DELIVERY_FILE), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}

/** The SMTP address without its password (shown, logged), and the password it held (kept in the vault). */
export function splitSmtpUrl(raw: string): { url: string; password: string | null } {
  const u = new URL(raw);
  const password = u.password ? decodeURIComponent(u.password) : null;
  u.password = '';
  return { url: u.toString(), password };
}

/** Where a message's link goes: the screen concerned. */
function screenOf(message: AlertMessage): string {
  switch (message.rule.kind) {
    case 'webhook-failures':
    case 'max-retries':
      return '/webhook-failures';
    case 'expiring-consents':
      return '/consents';
    case 'withdrawal-spike':
      return '/events?types=REVOKED';
    case 'sync-stale':
      return '/overview';
    case 'audit-chain':
      return '/audit';
    case 'report-unsigned':
      return '/reports/rule94';
  }
}

const VERB = { firing: 'Firing', repeat: 'Still firing', resolved: 'Resolved' } as const;

export function messageText(message: AlertMessage, consoleUrl: string | null) {
  const link = consoleUrl ? `${consoleUrl.replace(/\/+$/, '')}/#${screenOf(message)}` : null;
  const subject = `[CDR Console] ${VERB[message.kind]}: ${message.title}`;
  const lines = [
    `${VERB[message.kind]}: ${message.title}`,
    message.found,
    `Since ${message.alert.firstAt} (UTC)${message.alert.resolvedAt ? `, resolved ${message.alert.resolvedAt}` : ''}.`,
    `Rule: ${message.rule.kind} ${JSON.stringify(message.rule.params)}`,
    ...(link ? [`Open in the console: ${link}`] : []),
  ];
  const html = `<p><strong>${escapeHtml(`${VERB[message.kind]}: ${message.title}`)}</strong></p><p>${escapeHtml(message.found)}</p><p>${escapeHtml(lines[2]!)}</p>${
    link ? `<p><a href="${escapeHtml(link)}">Open in the console</a></p>` : ''
  }`;
  return { subject, text: lines.join('\n'), html, link };
}

/** Signs a webhook body the Standard Webhooks way: `v1,` base64 HMAC-SHA256 of "id.timestamp.body" under the secret (whsec_ base64). */
export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** An e-mail as nodemailer takes it. */
interface OutgoingMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: string; contentType: string }[];
}

export interface Deliverer {
  deliver(message: AlertMessage): Promise<void>;
  /**
   * A report by e-mail to the alert e-mail's recipients (the monthly compliance pack), recorded in
   * the audit log; null when no e-mail is set up.
   */
  mailReport(mail: Omit<OutgoingMail, 'from' | 'to' | 'html'> & { screen: string }): Promise<{ ok: boolean; detail: string } | null>;
  /** A test message through one way (Settings' "Send a test"): what happened, in words. */
  test(way: 'email' | 'webhook'): Promise<{ ok: boolean; detail: string }>;
}

export function createDeliverer(deps: {
  config: () => DeliveryConfig;
  secret: (name: string) => string | undefined;
  audit: (entry: AuditEntry) => Promise<unknown>;
  /** Waits between webhook attempts (ms); three attempts in all. */
  retryDelaysMs?: readonly number[];
  fetch?: typeof fetch;
}): Deliverer {
  const delays = deps.retryDelaysMs ?? [1000, 4000];
  const doFetch = deps.fetch ?? fetch;

  /** One e-mail through the SMTP server set up, to its recipients: what the server said. */
  async function smtp(mail: Omit<OutgoingMail, 'from' | 'to'>): Promise<string> {
    const c = deps.config().email;
    if (!c) throw new Error('no e-mail is set up');
    const password = deps.secret(SMTP_PASSWORD);
    const url = new URL(c.smtpUrl);
    if (password) url.password = encodeURIComponent(password);
    // Loaded when an e-mail goes, not with the core (nodemailer is some 150 ms of modules).
    const { createTransport } = await import('nodemailer');
    const transport = createTransport(url.toString());
    try {
      const info = await transport.sendMail({ ...mail, from: c.from, to: c.to });
      return `e-mail to ${c.to.join(', ')}: sent (${String(info.response ?? 'accepted').slice(0, 120)})`;
    } finally {
      transport.close();
    }
  }

  async function email(message: AlertMessage): Promise<string> {
    const text = messageText(message, deps.config().consoleUrl);
    return smtp({ subject: text.subject, text: text.text, html: text.html });
  }

  async function webhook(message: AlertMessage): Promise<string> {
    const c = deps.config().webhook;
    if (!c) throw new Error('no webhook is set up');
    const secret = deps.secret(WEBHOOK_SECRET);
    const text = messageText(message, deps.config().consoleUrl);
    const id = `msg_${randomUUID()}`;
    const body = JSON.stringify({
      type: `alert.${message.kind}`,
      timestamp: new Date().toISOString(),
      // Slack (and compatible incoming webhooks) show `text`.
      text: `${text.subject.replace('[CDR Console] ', '')}: ${message.found}${text.link ? ` <${text.link}|Open>` : ''}`,
      data: {
        alertId: message.alert.id,
        ruleId: message.rule.id,
        kind: message.rule.kind,
        state: message.alert.state,
        title: message.title,
        summary: message.found,
        firstAt: message.alert.firstAt,
        resolvedAt: message.alert.resolvedAt,
        link: text.link,
      },
    });
    let last = '';
    for (let attempt = 0; attempt <= delays.length; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, delays[attempt - 1]));
      const timestamp = Math.floor(Date.now() / 1000);
      try {
        const res = await doFetch(c.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            ...(secret ? { 'webhook-signature': standardSignature(secret, id, timestamp, body) } : {}),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return `webhook ${new URL(c.url).host}: ${res.status} after ${attempt + 1} attempt${attempt ? 's' : ''}`;
        last = `answered ${res.status}`;
        if (res.status < 500 && res.status !== 429) break;
      } catch (e) {
        last = (e as Error).message;
      }
    }
    throw new Error(`webhook ${new URL(c.url).host}: ${last}, gave up after ${delays.length + 1} attempts`);
  }

  const record = (action: string, result: string) =>
    deps.audit({ operator: 'CDR Console (alerts)', action, target: null, reason: null, result }).catch(() => undefined);

  async function through(way: 'email' | 'webhook', message: AlertMessage): Promise<{ ok: boolean; detail: string }> {
    try {
      const detail = await (way === 'email' ? email(message) : webhook(message));
      await record('alert:delivered', `${message.title} (${message.kind}) — ${detail}`);
      return { ok: true, detail };
    } catch (e) {
      const detail = (e as Error).message;
      await record('alert:delivery-failed', `${message.title} (${message.kind}) — ${way === 'email' ? 'e-mail' : 'webhook'}: ${detail}`);
      return { ok: false, detail };
    }
  }

  return {
    async mailReport({ screen, ...mail }) {
      const c = deps.config();
      if (!c.email) return null;
      // The screen it is kept on, when the console's address is set.
      const link = c.consoleUrl ? `\nOpen in the console: ${c.consoleUrl.replace(/\/+$/, '')}/#${screen}` : '';
      const record = (action: string, result: string) =>
        deps.audit({ operator: 'CDR Console (reports)', action, target: null, reason: null, result }).catch(() => undefined);
      try {
        const detail = await smtp({ ...mail, text: `${mail.text}${link}` });
        await record('report:sent', `${mail.subject} — ${detail}`);
        return { ok: true, detail };
      } catch (e) {
        const detail = `e-mail: ${(e as Error).message}`;
        await record('report:send-failed', `${mail.subject} — ${detail}`);
        return { ok: false, detail };
      }
    },
    async deliver(message) {
      const c = deps.config();
      await Promise.all([c.email ? through('email', message) : null, c.webhook ? through('webhook', message) : null]);
    },
    async test(way) {
      const c = deps.config();
      if (way === 'email' ? !c.email : !c.webhook) return { ok: false, detail: `No ${way === 'email' ? 'e-mail' : 'webhook'} is set up.` };
      const at = new Date().toISOString();
      return through(way, {
        kind: 'firing',
        title: 'Test message',
        found: 'A test of the alert delivery, sent from Settings. No rule fired.',
        alert: {
          id: 'test',
          ruleId: 'test',
          state: 'firing',
          summary: 'test',
          firstAt: at,
          lastAt: at,
          notifiedAt: at,
          resolvedAt: null,
          acknowledgedBy: null,
          acknowledgedAt: null,
        },
        rule: {
          id: 'test',
          kind: 'audit-chain',
          params: {},
          enabled: true,
          silencedUntil: null,
          silenceReason: null,
          silencedBy: null,
          createdAt: at,
          createdBy: 'test',
          updatedAt: at,
          version: 1,
        },
      });
    },
  };
}
