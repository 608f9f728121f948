/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
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
  globalSetup: '<rootDir>/test/helpers/globalSetup.ts',
  globalTeardown: '<rootDir>/test/helpers/globalTeardown.ts',
  testTimeout: 120000,
  maxWorkers: 2,
  // Workers bundle workflow code and hold native connections; give each file a clean exit.
  forceExit: true,
};
