// Lint, including the layering rules of DESIGN.md, enforced here rather than by memory:
// - renderer/ never imports electron/, `electron`, or Node built-ins;
// - shared/ imports neither side, nor `electron`, nor Node built-ins;
// - only the Electron shell (electron/main.ts, electron/preload.ts, electron/shell/) imports `electron`;
// - the core's domains reach storage only through their ports: never cache/ (the SQLite adapter) or the driver;
// - the PostgreSQL adapter (postgres/) never imports the SQLite adapter (cache/);
// - in the renderer and shared/, only renderer/src/ui/locale.ts makes Intl objects or calls toLocale*String (and shared/time/zone.ts asks Intl about time zones).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = {
  paths: builtinModules.filter((m) => !m.startsWith('_')).map((name) => ({ name, message: 'Node built-ins are main-process only.' })),
  regex: '^node:',
  message: 'Node built-ins are main-process only.',
};
const electronModule = {
  regex: '^electron(/.*)?$',
  message: 'Only the Electron shell (electron/main.ts, electron/preload.ts, electron/shell/) imports electron.',
};
const electronFolder = {
  regex: '(^|/)electron/',
  message: 'renderer/ and shared/ must not import from electron/: go through the IPC contract in shared/ipc.',
};
const rendererFolder = { regex: '(^|/)renderer/', message: 'Only the renderer imports renderer/.' };
const storageEngine = {
  paths: [
    { name: 'better-sqlite3-multiple-ciphers', message: 'The domains speak to storage through their ports (port.ts).' },
    { name: 'pg', message: 'The domains speak to storage through their ports (port.ts).' },
  ],
  regex: '(^|/)(cache|postgres)/',
  message:
    'The domains speak to storage through their ports (port.ts); only the composition root (console-core.ts) picks the adapter (cache/ or postgres/).',
};

const sqliteAdapter = {
  paths: [{ name: 'better-sqlite3-multiple-ciphers', message: 'The PostgreSQL adapter does not use SQLite.' }],
  regex: '(^|/)cache/',
  message: 'The PostgreSQL adapter shares nothing with the SQLite adapter (cache/): what both need lives in its domain.',
};

function restrict(...patterns) {
  const paths = patterns.flatMap((p) => p.paths ?? []);
  return [
    'error',
    {
      paths,
      patterns: patterns.filter((p) => p.regex).map(({ regex, message }) => ({ regex, message })),
    },
  ];
}

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}', 'electron/**/*.ts', 'test/**/*.{ts,tsx}', '*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // About React Compiler memoisation, which this project does not use.
      'react-hooks/incompatible-library': 'off',
      'no-restricted-imports': restrict(electronModule, electronFolder, nodeBuiltins),
    },
  },
  {
    // One module makes every Intl object and toLocale* call, from a language tag it has checked: a
    // browser may report one Intl refuses ("en-US@posix"), which crashed every screen (issue 34).
    // Time zones likewise from shared/time/zone.ts (a zone a person pinned, checked once).
    files: ['renderer/**/*.{ts,tsx}', 'shared/**/*.ts'],
    ignores: ['renderer/src/ui/locale.ts', 'shared/time/zone.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='Intl']",
          message: 'Intl objects come from renderer/src/ui/locale.ts (a checked language tag).',
        },
        {
          selector: 'CallExpression[callee.property.name=/^toLocale(String|DateString|TimeString)$/]',
          message: 'Format through renderer/src/ui/locale.ts or ui/format.ts, not toLocale*String.',
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(electronModule, electronFolder, rendererFolder, nodeBuiltins) },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/main.ts', 'electron/preload.ts', 'electron/shell/**'],
    rules: { 'no-restricted-imports': restrict(electronModule, rendererFolder) },
  },
  {
    // The domains (handlers, services, ports) and the exports know no storage engine (ARCHITECTURE.md).
    files: [
      'electron/core/{app,audit,complaints,consents,data,events,jobs,profiles,query,reports,exports}/**/*.ts',
      'electron/core/sync/**/*.ts',
      'electron/core/{context,storage,connection}.ts',
    ],
    rules: { 'no-restricted-imports': restrict(electronModule, rendererFolder, storageEngine) },
  },
  {
    files: ['electron/core/postgres/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(electronModule, rendererFolder, sqliteAdapter) },
  },
  {
    files: ['electron/main.ts', 'electron/preload.ts', 'electron/shell/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(rendererFolder) },
  },
);
