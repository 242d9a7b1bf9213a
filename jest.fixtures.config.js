/**
 * `npm run test:fixtures`: the suites that read GitLab export fixtures kept outside the repository
 * (test-fixtures/fixtures-dir.ts says where); `npm test` runs without them.
 */
import base from './jest.config.js'

export default {
  ...base,
  roots: ['<rootDir>/test-fixtures'],
  testMatch: ['**/*.fixtures.test.ts'],
  globalSetup: '<rootDir>/test-fixtures/fixtures-dir.ts',
}
