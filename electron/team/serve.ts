import { join } from 'node:path';
import { AuditAnchorFile } from '../core/audit/audit-anchor.js';
import { createKeyFileCipher } from '../core/secrets/cipher.js';
import { SecretVault } from '../core/secrets/vault.js';
import { PgDb } from '../core/postgres/db.js';
import { liveRelay, RELAYED, startTeamLive, type LiveRelay, type TeamLive } from '../core/postgres/live.js';
import { teamAuditKeys } from './audit-keys.js';
import { linkPeople } from './people-link.js';
import { auditSsoSettings } from './sso-audit.js';
import { readMemo } from '../core/postgres/read-memo.js';
import { registerInstance, teamStoreOpener, thisInstance } from '../core/postgres/team-store.js';
import type { EventPayload } from '../../shared/ipc/contract.js';
import { isRole, ROLES, type Role } from '../../shared/ipc/roles.js';
import type { AuditStore } from '../core/audit/port.js';
import type { ServeAs } from '../host/run.js';
import { openTeamDatabase } from './database.js';
import { pgPeopleStore } from '../core/postgres/people.js';
import { People, type PeopleOptions } from '../core/people/people.js';

/**
 * The team server: the browser host's console over the team store instead of a profile's SQLite
 * cache. Every server started with the same data directory and database serves one team: one sync
 * at a time among them, one audit log, the same data.
 */
export const APP_ROLE_SECRET = 'team.appRolePassword';
/** The key that signs the team audit log's head anchor, and where the anchor is kept. */
export const AUDIT_ANCHOR_SECRET = 'team.auditAnchorKey';
export const AUDIT_ANCHOR_FILE = 'team-audit.anchor';

/** The vault's name for the single sign-on client secret. */
export const OIDC_SECRET = 'team.oidcClientSecret';
export const DEFAULT_GROUPS = 'cdr-admin=admin,cdr-support=support,cdr-compliance=compliance,cdr-viewer=viewer';

/** "cdr-admin=admin,cdr-support=support" → { 'cdr-admin': 'admin', … }; a role the console does not know is refused. */
export function parseGroupRoles(text: string): Record<string, Role> {
  const out: Record<string, Role> = {};
  for (const pair of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = pair.lastIndexOf('=');
    const group = pair.slice(0, at).trim();
    const role = pair.slice(at + 1).trim();
    if (at <= 0 || !group) throw new Error(`"${pair}" is not group=role`);
    if (!isRole(role)) throw new Error(`"${role}" is not a role (${ROLES.join(', ')})`);
    out[group] = role;
  }
  if (!Object.keys(out).length) throw new Error('no group=role pair');
  return out;
}

export interface SsoOptions {
  issuer: string;
  clientId: string;
  roleClaim: string;
  groupRoles: Record<string, Role>;
  scopes: string[];
  label: string;
}

export function teamServer(opts: { databaseUrl?: string; version: string; people?: PeopleOptions; sso?: SsoOptions }): ServeAs {
  return {
    label: 'team server',
    async store(dataDir, log) {
      const vault = new SecretVault(dataDir, createKeyFileCipher(dataDir));
      const database = await openTeamDatabase({
        dataDir,
        ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
        appPassword: vault.getOrCreate(APP_ROLE_SECRET),
        code: `cdr-console ${opts.version}`,
        log: (line) => log.info(line),
      });
      console.log(`Team store: ${database.description}`);
      if (!database.role.separate)
        console.log(
          `Note: the server connects as ${database.role.role}, which owns the tables; it gave up UPDATE, DELETE and TRUNCATE on the audit log and a trigger refuses them, but an owner could take them back. See docs/team-server.md (a separate role).`,
        );
      const db = new PgDb(database.appUrl, {
        max: 16,
        applicationName: 'cdr-console team server',
        onError: (e) => log.error('the team database dropped a connection', e),
      });
      const me = thisInstance();
      // No anchor can exist yet when its key is new (the first server of this data directory).
      const fresh = !vault.has(AUDIT_ANCHOR_SECRET);
      const anchor = { file: new AuditAnchorFile(join(dataDir, AUDIT_ANCHOR_FILE), vault.getOrCreate(AUDIT_ANCHOR_SECRET)), fresh };
      // The audit log's keys (audit-keys.ts): entries MACed under a key the database never holds.
      const auditKeys = await teamAuditKeys(vault, db, { create: true });
      let registration: { stop(): Promise<void> } | undefined;
      let live: TeamLive | undefined;
      let relay: LiveRelay | undefined;
      // Aggregate reads shared by this server's consoles until something changes (read-memo.ts).
      const memo = readMemo();
      // Its people: sign-in, sessions, the Users screen (the audit log is the core's, opened next).
      let audit: AuditStore | undefined;
      const people = new People(pgPeopleStore(db), () => audit, opts.people);
      if (await people.noUsersYet())
        console.log(
          // With this server's data directory: the command line finds the team's store (and its keys) there.
          `No users yet: add the first admin with  printf %s "$PASSWORD" | npm run -s cli -- --data-dir ${JSON.stringify(dataDir)} users add --name NAME --display-name "Full Name" --role admin --password-stdin`,
        );
      let pruning: ReturnType<typeof setInterval> | undefined;
      return {
        store: teamStoreOpener(db, me, anchor, memo, auditKeys),
        people,
        async started(url, events, stores) {
          audit = stores.audit;
          // The secret: given once in the environment (then kept in the vault), or set with cli team oidc-secret.
          const given = process.env.CDR_CONSOLE_OIDC_CLIENT_SECRET;
          if (opts.sso && given) vault.set(OIDC_SECRET, given);
          const secret = given ?? vault.get(OIDC_SECRET) ?? undefined;
          // Single sign-on's settings changed since the team's last start: an audit entry (issue 35).
          await auditSsoSettings(stores, vault, opts.sso ? { ...opts.sso, secret } : undefined).catch((e: unknown) =>
            log.error('the single sign-on settings could not be compared with the last start', e),
          );
          if (opts.sso) {
            const sso = opts.sso;
            const redirectUri = new URL('signin/oidc/callback', url).toString();
            people.enableSso(
              sso.label,
              async () => {
                const { openOidc } = await import('../core/people/oidc.js');
                return openOidc({
                  issuer: sso.issuer,
                  clientId: sso.clientId,
                  ...(secret ? { clientSecret: secret } : {}),
                  redirectUri,
                  roleClaim: sso.roleClaim,
                  groupRoles: sso.groupRoles,
                  scopes: sso.scopes,
                });
              },
              (line) => log.info(line),
              new URL('signin?signed-out', url).toString(),
            );
            // The provider reached now: a wrong or unreachable issuer is said at start, not at the first click.
            void people.checkSso().then((health) => {
              if (health?.state === 'problem')
                console.error(
                  `Single sign-on is NOT working: ${health.problem}. The sign-in page offers passwords only until the provider can be used (tried again every 30 s).`,
                );
            });
            console.log(
              `Single sign-on: ${sso.issuer} (client ${sso.clientId}, ${secret ? 'with its secret from the vault' : 'a public client: no secret'}); register ${redirectUri} as its redirect URI and ${new URL('signin?signed-out', url).toString()} as its post-logout redirect URI.`,
            );
          }
          // Sessions past their limits are forgotten now and then (each is refused when used anyway).
          pruning = setInterval(
            () => void people.prune().catch((e: unknown) => log.error('expired sessions were not removed', e)),
            10 * 60_000,
          );
          pruning.unref();
          registration = await registerInstance(db, me, url);
          // What this server's core tells its consoles goes to the other servers' consoles, and theirs
          // come here (live.ts); a notice re-emitted here is not published again.
          let relaying = false;
          // Sessions ended here close their connections on the other servers, and theirs here.
          const peopleLink = linkPeople(
            people,
            (event, payload) => live?.publish(event, payload) ?? Promise.resolve(),
            (line) => log.info(line),
          );
          live = await startTeamLive({
            url: database.appUrl,
            db,
            origin: me.id,
            onNotice: (event, payload) => {
              if (peopleLink.heard(event, payload)) return;
              relaying = true;
              try {
                events.emit(event, payload as never);
              } finally {
                relaying = false;
              }
            },
            onStatus: (s) => {
              // Notices may have been missed while the link was down: nothing shared is trusted.
              memo.invalidate();
              log.info(s.connected ? 'live link to the other team servers is up' : `live link down: ${s.problem}`);
            },
            log: (line) => log.info(line),
          });
          // A sync's progress goes a few times a second, not once per page (live.ts liveRelay).
          const link = live;
          relay = liveRelay(
            (event, payload) => link.publish(event, payload),
            (e) => log.error('a live notice was not sent', e),
          );
          events.subscribe((event, payload) => {
            // A change here or on another server (relayed): every shared answer is asked again.
            if (event === 'cache:changed' || event === 'profile:switched' || event === 'team:database') memo.invalidate();
            if (!relaying && RELAYED.has(event)) relay?.relay(event, payload);
            if (event === 'team:database') {
              const d = payload as EventPayload<'team:database'>;
              log.info(d.state === 'ok' ? 'the team database is reachable again' : `the team database is unreachable: ${d.problem}`);
            }
          });
        },
        async close() {
          clearInterval(pruning);
          await relay?.close();
          await live?.close();
          await registration?.stop();
          await db.close();
          await database.stop();
        },
      };
    },
  };
}
