// electron-builder configuration: `npm run dist`. Cannot complete on machines without network
// access to the Electron download (see README, "Packaging").
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file: electron-builder and the packaging test require() it */
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { Arch } = require('electron-builder');

// The one runtime dependency: better-sqlite3-multiple-ciphers 13, a Node-API (version 10) module. Its
// prebuilt binaries (prebuilds/<platform>-<arch>.node, loaded by lib/) run unchanged in Node 22.14+/24
// and in Electron 45 (Node 24): nothing is rebuilt per Electron version, here or at install.
const DRIVER = 'node_modules/better-sqlite3-multiple-ciphers';

// Allowlist: the bundles, the built UI and the one native runtime dependency. No sources, no maps.
const commonFiles = [
  'package.json',
  'dist/electron/*.cjs',
  'dist/renderer/**',
  '!dist/**/*.map',
  // The driver ships lib/ (its loader and JS API), package.json, LICENSE and one prebuild (below).
  // Not its C++ sources, SQLite's amalgamation, the gyp files, or the build/ folder npm leaves
  // behind (config.gypi names this machine's paths).
  `!${DRIVER}/{deps,src,build,docs,test,benchmark}{,/**/*}`,
  `!${DRIVER}/{binding.gyp,*.md,*.d.ts}`,
  // C++ headers for building the driver from source: never loaded at run time.
  '!node_modules/node-addon-api{,/**/*}',
];

// Each platform ships only its own prebuild, for the target's ${arch}. electron-builder applies only
// "!" patterns to node_modules, and its ${platform} macro is the build machine's platform, not the
// target's, hence one list per platform. The whole list is per platform (there is no top-level
// `files`): electron-builder 26.17 drops the top-level allowlist when a platform adds patterns of
// its own, and would then pack the whole repository.
const filesFor = (platform) => [...commonFiles, `!${DRIVER}/prebuilds/!(${platform}-\${arch}).node`];

/**
 * After packing: the driver's prebuild for the target must be in app.asar.unpacked, and be the only
 * one. A target without a prebuild (ia32, armv7l, a universal macOS build) would otherwise package
 * fine and fail at the first database it opens.
 */
function checkDriverPrebuild(context) {
  const platform = { linux: 'linux', darwin: 'darwin', mas: 'darwin', win32: 'win32' }[context.electronPlatformName];
  const expected = `${platform}-${Arch[context.arch]}.node`;
  const dir = join(context.packager.getResourcesDir(context.appOutDir), 'app.asar.unpacked', DRIVER, 'prebuilds');
  const shipped = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.node')) : [];
  if (shipped.length !== 1 || shipped[0] !== expected) {
    const available = readdirSync(join(__dirname, '..', DRIVER, 'prebuilds')).filter((f) => f.endsWith('.node'));
    throw new Error(
      `better-sqlite3-multiple-ciphers: expected only prebuilds/${expected} in the package, found [${shipped.join(', ')}]. ` +
        `Prebuilds exist for ${available.map((f) => f.replace(/\.node$/, '')).join(', ')}; build one of those targets.`,
    );
  }
}

/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'au.gov.cdr.console.example',
  productName: 'CDR Console',
  directories: { output: 'release', buildResources: 'build' },
  // Native modules cannot load from inside the asar archive.
  asarUnpack: ['**/*.node'],
  // Nothing to rebuild: the driver is Node-API with prebuilds. A rebuild would fetch Electron's
  // headers, and a source build would replace the prebuild with one for this machine only.
  npmRebuild: false,
  nodeGypRebuild: false,
  buildDependenciesFromSource: false,
  afterPack: checkDriverPrebuild,
  // Electron 45's fuse wire has 9 fuses; electron-builder 26.17.0 (@electron/fuses 1.8) sets the
  // first 8. The 9th, wasmTrapHandlers, keeps Electron's default (on), which is the safe value.
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    loadBrowserProcessSpecificV8Snapshot: false,
    grantFileProtocolExtraPrivileges: false,
  },
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Office',
    maintainer: 'CDR Console team',
    // glibc builds only: Electron has no musl build, so the linuxmusl-* prebuilds are never wanted.
    files: filesFor('linux'),
  },
  deb: { depends: ['libnss3', 'libsecret-1-0'] },
  mac: { target: 'dmg', category: 'public.app-category.business', hardenedRuntime: true, files: filesFor('darwin') },
  win: { target: 'nsis', files: filesFor('win32') },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
};
