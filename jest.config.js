/**
 * Tests are TypeScript, compiled by SWC to CommonJS for Jest's runtime (the source itself is ESM).
 * Relative imports keep their `.js` suffix in the source, as NodeNext requires; the mapper strips it.
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 30000,
}
