import { Option, type Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { writeProfiles } from '../core/config/profile-store.js';
import { loadProfiles, Profile, type ProfilesFile } from '../core/config/profiles.js';
import { createKeyFileCipher } from '../core/secrets/cipher.js';
import { secretNames, SecretVault } from '../core/secrets/vault.js';
import { withChannels } from './channels.js';
import { dataDirOf, EXIT, Exit, readStdin, table } from './common.js';

/** `cli profiles list | add | test`: the connection profiles, their credentials in the vault. */
export function addProfileCommands(program: Command): void {
  const profiles = program.command('profiles').description('connection profiles');
  profiles
    .command('list')
    .description('list the profiles')
    .option('--json', 'JSON output')
    .action((o: { json?: boolean }) => {
      const file = loadProfiles(dataDirOf(program));
      const rows = file.profiles.map((p) => ({
        id: p.id,
        name: p.name,
        environment: p.environment,
        default: p.id === file.defaultProfileId ? 'yes' : '',
        consentApi: p.embedded ? '(embedded sandbox)' : p.consentApiBaseUrl,
        auth: p.clientAuth.method,
      }));
      process.stdout.write(
        `${o.json ? JSON.stringify(rows, null, 2) : table(rows, ['id', 'name', 'environment', 'default', 'consentApi', 'auth'])}\n`,
      );
    });
  profiles
    .command('add')
    .description('add (or replace) a profile; the secret or key goes to the encrypted vault, never to profiles.json')
    .requiredOption('--name <name>', 'display name')
    .option('--id <id>', 'profile id (default: from the name)')
    .addOption(new Option('--env <env>', 'environment').choices(['sandbox', 'nonprod', 'prod']).makeOptionMandatory())
    .requiredOption('--base-url <url>', 'Consent API base URL')
    .option('--data-url <url>', 'Data API base URL (default: the base URL)')
    .requiredOption('--token-url <url>', 'OAuth2 token URL')
    .requiredOption('--client-id <id>', 'OAuth2 client id')
    .option('--client-secret-stdin', 'read the client secret from standard input')
    .option('--private-key <file>', 'PKCS#8 PEM private key for private_key_jwt')
    .option('--key-id <kid>', 'key id of the private key')
    .option('--algorithm <alg>', 'signing algorithm of the private key', 'PS256')
    .option('--scopes <list>', 'space-separated scopes', 'consents:read consents:write use-cases:read data-holders:read tokens:write')
    .option('--default', 'make it the default profile')
    .action(async (o: Record<string, string | boolean | undefined>) => {
      const dir = dataDirOf(program);
      if (Boolean(o.clientSecretStdin) === Boolean(o.privateKey))
        throw new Exit(EXIT.usage, 'Give exactly one of --client-secret-stdin and --private-key FILE.');
      if (o.privateKey && !o.keyId) throw new Exit(EXIT.usage, '--private-key needs --key-id.');
      const id = String(
        o.id ??
          String(o.name)
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/^-|-$/g, ''),
      );
      const candidate = {
        id,
        name: String(o.name),
        environment: String(o.env),
        embedded: false,
        consentApiBaseUrl: String(o.baseUrl),
        dataApiBaseUrl: String(o.dataUrl ?? o.baseUrl),
        tokenUrl: String(o.tokenUrl),
        clientId: String(o.clientId),
        clientAuth: o.privateKey
          ? { method: 'private_key_jwt', keyId: String(o.keyId), algorithm: String(o.algorithm) }
          : { method: 'client_secret_basic' },
        scopes: String(o.scopes).split(/\s+/).filter(Boolean),
      };
      const parsed = Profile.safeParse(candidate);
      if (!parsed.success)
        throw new Exit(EXIT.usage, `Invalid profile: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      if (o.privateKey && !existsSync(String(o.privateKey)))
        throw new Exit(EXIT.usage, `--private-key: no such file: ${String(o.privateKey)}`);
      const secret = o.privateKey ? readFileSync(String(o.privateKey), 'utf8') : await readStdin();
      if (!secret) throw new Exit(EXIT.usage, o.privateKey ? 'The private key file is empty.' : 'No client secret on standard input.');
      const file: ProfilesFile = loadProfiles(dir);
      const next: ProfilesFile = {
        ...file,
        profiles: [...file.profiles.filter((p) => p.id !== id), parsed.data],
        ...(o.default ? { defaultProfileId: id } : {}),
      };
      const vault = new SecretVault(dir, createKeyFileCipher(dir));
      vault.set(o.privateKey ? secretNames.privateKey(id) : secretNames.clientSecret(id), secret);
      writeProfiles(dir, next);
      process.stdout.write(`Profile "${id}" saved; its ${o.privateKey ? 'private key' : 'client secret'} is in the encrypted vault.\n`);
    });
  profiles
    .command('test')
    .description('get a token and make one call, saying precisely what failed')
    .option('--json', 'JSON output')
    .action(async (o: { json?: boolean }) => {
      // This machine's profile only (profiles are not a --server command): through its core's channels.
      await withChannels(program, async (call) => {
        const result = await call('profiles:test', {});
        if (o.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else for (const s of result.steps) process.stdout.write(`${s.ok ? '✓' : '✗'} ${s.step}: ${s.detail}\n`);
        if (!result.ok)
          throw new Exit(result.steps.some((s) => /credentials|scope|access token/.test(s.detail)) ? EXIT.unauthorized : EXIT.offline);
      });
    });
}
