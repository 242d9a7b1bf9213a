/**
 * Tests are TypeScript, compiled to CommonJS by ts-jest for Jest's runtime (the source itself is ESM).
 * Type-checking is `npm run typecheck`'s job, so ts-jest only transpiles (fast).
 * Relative imports keep their `.js` suffix in the source, as NodeNext requires; the mapper strips it.
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: { module: 'commonjs', moduleResolution: 'node', target: 'es2022', isolatedModules: true },
        diagnostics: false,
      },
    ],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 30000,
}
