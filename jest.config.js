/** One configuration for every package and service: `pnpm test` runs them all. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/e2e', '<rootDir>/examples', '<rootDir>/infra'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
    // otplib's audited crypto and base32 (@noble, @scure) ship as ES modules only.
    '/node_modules/\\.pnpm/@(noble|scure)\\+.+\\.js$': [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: ['^(?!.*/node_modules/\\.pnpm/@(noble|scure)\\+).*/node_modules/'],
  globalSetup: '<rootDir>/packages/testkit/global-setup.js',
  globalTeardown: '<rootDir>/packages/testkit/global-teardown.js',
  testTimeout: 30000,
  maxWorkers: process.env.JEST_MAX_WORKERS || 2,
  modulePathIgnorePatterns: ['<rootDir>/.data', '/dist/'],
};
