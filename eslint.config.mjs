import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layer rules (docs/architecture.md#layout). Import strings are matched as written (relative paths).
const layer = {
  database: {
    regex: '^(\\.\\./)+db(/.*)?$',
    allowTypeImports: true,
    message: 'src/http does not touch the database: call the process module in src/<process>/ that does.',
  },
  prismaValues: {
    regex: '^(\\.\\./)+generated(/.*)?$',
    allowTypeImports: true,
    message: 'src/http may name Prisma types (import type) but not use the client: call src/<process>/.',
  },
  http: {
    regex: '^(\\.\\./)+(src/)?http(/.*)?$',
    message:
      'Only src/http knows HTTP: below it code throws DomainError (src/errors.ts), never ApiError, and imports nothing from src/http.',
  },
  activities: {
    regex: '^(\\.\\./)+activities(/.*)?$',
    message: 'src/ does not import activities: put the shared code in src/<process>/ and let the activity import it.',
  },
};
const restrictImports = (...patterns) => ['error', { patterns }];
const production = ['src/**/*.ts', 'simulators/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts', 'temporal/**/*.ts'];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'src/generated/',
      '.tools/',
      '.data/',
      '.venv-fuzz/',
      'coverage/',
      // What `npm run build` compiles from src/, simulators/, activities/, workflows/ and temporal/.
      'dist/',
      '*.js',
      '*.mjs',
      // Jest loads its reporter and runner as plain CommonJS (untranspiled); like jest.config.js.
      'test/helpers/*.js',
      // The typed client's types are generated (npm run client:generate) and its build output is not source.
      'clients/typescript/src/generated/',
      'clients/typescript/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/http/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(layer.database, layer.prismaValues) },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/http/**'],
    rules: { 'no-restricted-imports': restrictImports(layer.http, layer.activities) },
  },
  {
    // The API's composition root: it builds the Express app, so it is the one file outside src/http that imports it.
    files: ['src/runtime/api.ts'],
    rules: { 'no-restricted-imports': restrictImports(layer.activities) },
  },
  {
    // The worker's composition root: it registers createActivities, the one import of activities/ from src/.
    files: ['src/runtime/worker.ts'],
    rules: { 'no-restricted-imports': restrictImports(layer.http) },
  },
  {
    files: ['activities/**/*.ts', 'temporal/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(layer.http) },
  },
  {
    // The simulated outside world knows the engine only from outside: over HTTP, never its routes or activities.
    files: ['simulators/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports(layer.http, layer.activities) },
  },
  {
    // Activities hand the database handle to src/<process>/ and never query it themselves. Matched by
    // name (db, tx, deps.db): the handle only reaches an activity that way.
    files: ['activities/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'MemberExpression[object.name=/^(db|tx)$/]',
          "MemberExpression[object.type='MemberExpression'][object.property.name='db']",
        ].map((selector) => ({
          selector,
          message: 'No database calls in activities: the process module in src/<process>/ does them.',
        })),
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Workflow code is replayed: it must be deterministic, so no Node builtins, no I/O, no clock
    // or randomness outside the workflow API (which replaces Date and Math.random deterministically).
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            // Every builtin of the running Node, bare and with the node: scheme (some exist only as node:x).
            ...[
              ...new Set(
                builtinModules.flatMap((name) => (name.startsWith('node:') ? [name] : [name, `node:${name}`])),
              ),
            ].map((name) => ({
              name,
              message: 'Node builtins are not allowed in workflow code; use an activity.',
            })),
            { name: '@temporalio/client', message: 'Workflows use @temporalio/workflow only.' },
            { name: '@temporalio/worker', message: 'Workflows use @temporalio/workflow only.' },
            { name: '@temporalio/activity', message: 'Workflows use @temporalio/workflow only.' },
          ],
          patterns: [
            {
              group: ['**/src/db/**', '**/generated/**', 'pg', 'ioredis', 'pino', 'express'],
              message: 'No I/O in workflow code; use an activity.',
            },
            {
              group: ['**/activities', '**/activities/**'],
              allowTypeImports: true,
              message: 'Import activity types only (import type).',
            },
            layer.http,
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'No network in workflow code; use an activity.' },
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'process', message: 'No process access in workflow code.' },
        { name: 'require', message: 'No dynamic require in workflow code.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Pass times in as inputs or read them in an activity.' },
        { object: 'Math', property: 'random', message: 'Use deterministicFraction() from workflows/shared/random.ts.' },
        { object: 'crypto', property: 'randomUUID', message: 'Use uuid4() from @temporalio/workflow.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'new Date() is not allowed in workflows; pass times in or use an activity.',
        },
      ],
    },
  },
  {
    // Counted as `wc -l` counts them: blank lines and comments included.
    files: production,
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    // A workflow reads as its business steps: a function longer than a screenful is split into named
    // steps. Blank lines and comments do not count, so explaining why costs nothing.
    files: ['workflows/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 110, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
);
