import { join } from 'node:path';
import { CoreError } from './errors.js';
import type { RunningSandbox, SandboxOptions } from '../sandbox/server.js';
import { createClientCredentialsTokenSource, type TokenSource } from './auth/token-source.js';
import { SANDBOX_CLIENT_SECRET, type Profile } from './config/profiles.js';
import type { Logger } from './log.js';
import { secretNames, type SecretVault } from './secrets/vault.js';

/**
 * How the console reaches a profile's intermediary: the credential from the vault, the token
 * options, and the embedded sandbox's simulated consumer approval.
 */

/** A non-embedded profile's client secret or private key, from the vault (or the environment's secret for this run). */
export function storedCredential(profile: Profile, vault: SecretVault, fallback?: string): string {
  const usesKey = profile.clientAuth.method === 'private_key_jwt';
  const stored = usesKey ? vault.get(secretNames.privateKey(profile.id)) : (vault.get(secretNames.clientSecret(profile.id)) ?? fallback);
  if (!stored) {
    throw new CoreError(
      'UNAUTHORIZED',
      usesKey
        ? `Profile "${profile.id}" has no private key: add it in Settings, or with npm run -s cli -- profiles add … --private-key FILE.`
        : `Profile "${profile.id}" has no client secret: add it in Settings, or set CDR_CONSOLE_CLIENT_SECRET for this run.`,
    );
  }
  return stored;
}

export function tokenOptionsOf(profile: Profile, tokenUrl: string, secret: string) {
  const auth = profile.clientAuth;
  return {
    tokenUrl,
    clientId: profile.clientId,
    clientSecret: secret,
    method: auth.method,
    ...(auth.method === 'private_key_jwt' ? { keyId: auth.keyId, algorithm: auth.algorithm } : {}),
    // The embedded sandbox grants every scope, Data API included; profiles written by older versions listed fewer.
    scopes: profile.embedded ? [] : profile.scopes,
  };
}

/**
 * The consumer's approval at the embedded sandbox's simulated data holder: visits the authorization
 * URI over HTTP, as a browser would, and returns the signed response JWT it redirects with.
 */
export async function approveInSandbox(sandboxUrl: string, uri: string): Promise<string> {
  if (new URL(uri).origin !== new URL(sandboxUrl).origin)
    throw new CoreError('INVALID_INPUT', 'That authorization URI is not the embedded sandbox’s data holder.');
  const res = await fetch(uri, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) {
    throw new CoreError('UPSTREAM', `The simulated data holder refused: ${(await res.text()).slice(0, 300) || res.status}`);
  }
  const response = new URL(location).searchParams.get('response');
  if (!response) throw new CoreError('UPSTREAM', 'The simulated data holder redirected without a response JWT.');
  return response;
}

/** A profile's intermediary, reached: its addresses and a token source (and the embedded sandbox, when it is that). */
export interface Connection {
  sandbox: RunningSandbox | undefined;
  baseUrl: string;
  tokenUrl: string;
  dataApiBaseUrl: string;
  tokenOptions: ReturnType<typeof tokenOptionsOf>;
  tokens: TokenSource;
}

/**
 * Reaches a profile's intermediary: the embedded sandbox is started (it keeps what the user changed
 * — revocations, new consents, its clock — in the profile's folder, per seed and size, so it is
 * still there tomorrow, and comes back at its old port when it can); any other profile's
 * credential comes from the vault.
 */
export async function openConnection(opts: {
  profile: Profile;
  profileDir: string;
  vault: SecretVault;
  log: Logger;
  sandbox?: Omit<SandboxOptions, 'port'> | undefined;
  sandboxPort?: number | undefined;
  clientSecret?: string | undefined;
}): Promise<Connection> {
  const { profile } = opts;
  let sandbox: RunningSandbox | undefined;
  let baseUrl: string;
  let tokenUrl: string;
  let secret: string;
  if (profile.embedded) {
    // Loaded only for the embedded profile: the sandbox (its generator, faker's data) is most of the
    // bundle, and a command-line read of another profile's cache never needs it.
    const { SANDBOX_DEFAULTS, startSandbox } = await import('../sandbox/server.js');
    const seed = opts.sandbox?.seed ?? SANDBOX_DEFAULTS.seed;
    const count = opts.sandbox?.consents ?? SANDBOX_DEFAULTS.consents;
    const sandboxOptions: SandboxOptions = {
      // Its clock follows real time ("expires in 3 days" means something), unless a test pins it.
      realTime: !opts.sandbox?.clockOrigin,
      ...opts.sandbox,
      clientId: profile.clientId,
      clientSecret: SANDBOX_CLIENT_SECRET,
      stateFile: join(opts.profileDir, `sandbox-state-seed${seed}-n${count}.json`),
    };
    sandbox = opts.sandboxPort
      ? await startSandbox({ ...sandboxOptions, port: opts.sandboxPort }).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EADDRINUSE') throw error;
          return startSandbox(sandboxOptions);
        })
      : await startSandbox(sandboxOptions);
    baseUrl = sandbox.url;
    tokenUrl = `${sandbox.url}/oauth2/token`;
    secret = SANDBOX_CLIENT_SECRET;
    opts.log.info(`embedded sandbox started at ${sandbox.url}`);
  } else {
    baseUrl = profile.consentApiBaseUrl!;
    tokenUrl = profile.tokenUrl!;
    secret = storedCredential(profile, opts.vault, opts.clientSecret);
  }
  const tokenOptions = tokenOptionsOf(profile, tokenUrl, secret);
  return {
    sandbox,
    baseUrl,
    tokenUrl,
    dataApiBaseUrl: profile.embedded ? baseUrl : (profile.dataApiBaseUrl ?? baseUrl),
    tokenOptions,
    tokens: createClientCredentialsTokenSource(tokenOptions),
  };
}
