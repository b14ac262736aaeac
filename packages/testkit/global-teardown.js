const fs = require('node:fs');
// Jest's transform also applies to what global setup and teardown require, so the TypeScript loads.
const { assertOperationCoverage } = require('./src/operation-coverage.ts');

module.exports = async (globalConfig) => {
  const dir = process.env.CONTRACT_COVERAGE_DIR;
  try {
    if (globalThis.__EMBEDDED_TEST_PG__) await globalThis.__EMBEDDED_TEST_PG__.stop();
    // A run narrowed to some test names exercises only part of each file: nothing to check then.
    if (!globalConfig.testNamePattern) assertOperationCoverage(dir);
  } finally {
    if (dir && globalThis.__CONTRACT_COVERAGE_DIR_MADE__) fs.rmSync(dir, { recursive: true, force: true });
  }
};
