/**
 * Four tiers, each a jest project with only the set-up it needs (see docs/testing.md). A project's
 * global set-up runs only when a file of that project is selected, once per module for the run,
 * so `npm run test:unit` starts nothing, and the workflow tier only builds the workflow bundle.
 */
const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    // Transpile only: tsconfig.test.json sets isolatedModules, so ts-jest compiles each file on its own
    // (no type checker, no program of the whole tree per worker). `npm run typecheck` checks types.
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
    // jose ships ES modules only; Node 20 and 22 run them in the app, Jest's CommonJS runtime needs them compiled.
    '/node_modules/jose/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', isolatedModules: true } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  setupFiles: ['<rootDir>/test/helpers/quietTemporal.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/helpers/contractChecks.ts'],
  testMatch: ['**/*.test.ts'],
};

const teardown = { globalTeardown: '<rootDir>/test/helpers/globalTeardown.ts' };
// Postgres (a throwaway database), a Temporal dev server, dist/ and the workflow bundle.
const services = { globalSetup: '<rootDir>/test/helpers/globalSetup.ts', ...teardown };

/** Workflow tests that run real activities against Postgres: they need the integration tier's set-up. */
const workflowFilesWithDatabase = ['webhooks/webhookDelivery', 'payments/stepUpAbandoned'];

/** Files that spawn engines, CLIs or killers of them, or run for minutes: the system tier. */
const systemFiles = [
  'engine/benchSmoke',
  'engine/chaosShort',
  'engine/cliConfigErrors',
  'engine/engineShutdown',
  'engine/sandboxRestart',
  'engine/splitObservability',
  'iam/iamAdminCli',
  'idempotency/idempotencyApiCrash',
  'keys/keysAdminCli',
  'payments/paymentCrash',
  'payments/stepUpCrash',
  'payments/paymentReviewCli',
];

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    { ...shared, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
    {
      ...shared,
      displayName: 'workflow',
      roots: ['<rootDir>/test/workflow', '<rootDir>/test/replay'],
      testPathIgnorePatterns: [
        '/node_modules/',
        ...workflowFilesWithDatabase.map((file) => `/test/workflow/${file}\\.test\\.ts$`),
      ],
      globalSetup: '<rootDir>/test/helpers/workflowSetup.ts',
      ...teardown,
    },
    {
      ...shared,
      displayName: 'integration',
      roots: ['<rootDir>/test/integration', '<rootDir>/test/workflow'],
      testMatch: [
        '**/test/integration/**/*.test.ts',
        ...workflowFilesWithDatabase.map((file) => `**/test/workflow/${file}.test.ts`),
      ],
      testPathIgnorePatterns: [
        '/node_modules/',
        ...systemFiles.map((file) => `/test/integration/${file}\\.test\\.ts$`),
      ],
      ...services,
    },
    {
      ...shared,
      displayName: 'system',
      roots: ['<rootDir>/test/integration'],
      testMatch: systemFiles.map((file) => `**/test/integration/${file}.test.ts`),
      runner: '<rootDir>/test/helpers/serialRunner.js',
      ...services,
    },
    // No files of its own under the default match: `npm run test:browser` selects it with --testMatch.
    { ...shared, displayName: 'browser', roots: ['<rootDir>/test/browser'], ...services },
  ],
  testTimeout: 120000,
  maxWorkers: 2,
  // A worker whose heap is above this after a file is replaced by a fresh one before the next file.
  workerIdleMemoryLimit: '1GB',
  reporters: ['default', '<rootDir>/test/helpers/slowestFilesReporter.js'],
  // Longest files first, from test/timings.json when jest has no times of its own (a fresh clone).
  testSequencer: '<rootDir>/test/helpers/timingsSequencer.js',
};
