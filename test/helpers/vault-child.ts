// A process opening a data directory's vault at the same moment as others (team servers starting
// together): it creates the shared secret if absent, writes one of its own, and prints what it holds.
// Usage: vault-child.ts DATA_DIR NAME
import { createKeyFileCipher } from '../../electron/core/secrets/cipher.js';
import { SecretVault } from '../../electron/core/secrets/vault.js';

const [dataDir, name] = process.argv.slice(2) as [string, string];
const vault = new SecretVault(dataDir, createKeyFileCipher(dataDir));
const shared = vault.getOrCreate('team.shared');
vault.set(`own:${name}`, `value of ${name}`);
process.stdout.write(`${JSON.stringify({ shared })}\n`);
