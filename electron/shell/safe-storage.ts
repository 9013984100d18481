import { safeStorage } from 'electron';
import { SecretStoreError, type SecretCipher } from '../core/secrets/cipher.js';

/**
 * The desktop's cipher: Electron's safeStorage (macOS Keychain, Windows DPAPI, Linux Secret
 * Service / KWallet). Linux's "basic_text" backend would store secrets in plain text, so it is
 * refused, saying why.
 */
export function createSafeStorageCipher(): SecretCipher {
  if (!safeStorage.isEncryptionAvailable())
    throw new SecretStoreError('The OS keychain is not available, so secrets cannot be stored safely.');
  if (process.platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend();
    if (backend === 'basic_text' || backend === 'unknown') {
      throw new SecretStoreError(
        `No OS keyring is available (Electron chose "${backend}", which keeps secrets in plain text). Install and unlock GNOME Keyring or KWallet, or use the browser host (npm start -- --browser).`,
      );
    }
  }
  return {
    kind: 'os-keychain',
    description: 'Secrets are encrypted by the operating system keychain.',
    encrypt: (plain) => safeStorage.encryptString(plain.toString('utf8')),
    decrypt: (blob) => Buffer.from(safeStorage.decryptString(blob), 'utf8'),
  };
}
