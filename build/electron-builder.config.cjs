// electron-builder configuration: `npm run dist`. Cannot complete on machines without network
// access to the Electron download (see README, "Packaging").
/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'au.gov.cdr.console.example',
  productName: 'CDR Console',
  directories: { output: 'release', buildResources: 'build' },
  // Allowlist: the bundles, the built UI and the one native runtime dependency. No sources, no maps.
  files: [
    'package.json',
    'dist/electron/*.cjs',
    'dist/renderer/**',
    '!dist/**/*.map',
    '!node_modules/better-sqlite3-multiple-ciphers/{deps,src,docs,test,benchmark}/**',
    '!node_modules/better-sqlite3-multiple-ciphers/build/Release/{obj,obj.target,.deps}/**',
    '!node_modules/better-sqlite3-multiple-ciphers/build/Release/*.{a,o,d,mk}',
    '!node_modules/better-sqlite3-multiple-ciphers/build/Release/test_extension.node',
    '!node_modules/better-sqlite3-multiple-ciphers/build/deps/**',
  ],
  // Native modules cannot load from inside the asar archive.
  asarUnpack: ['**/*.node'],
  // Rebuild native modules for Electron's ABI at pack time (build/dist.mjs restores Node's afterwards).
  npmRebuild: true,
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
  linux: { target: ['AppImage', 'deb'], category: 'Office', maintainer: 'CDR Console team' },
  deb: { depends: ['libnss3', 'libsecret-1-0'] },
  mac: { target: 'dmg', category: 'public.app-category.business', hardenedRuntime: true },
  win: { target: 'nsis' },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
};
