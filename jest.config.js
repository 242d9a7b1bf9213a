/**
 * Tests are TypeScript, compiled to CommonJS by ts-jest for Jest's runtime (the source itself is ESM).
 * Type-checking is `npm run typecheck`'s job, so ts-jest only transpiles (fast).
 * Relative imports keep their `.js` suffix in the source, as NodeNext requires; the mapper strips it.
 * Octokit's packages are ESM only: ts-jest compiles them too, so tests run the action's real Octokit.
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.[jt]s$': [
      'ts-jest',
      {
        tsconfig: {
          module: 'commonjs',
          moduleResolution: 'node',
          target: 'es2022',
          isolatedModules: true,
          allowJs: true,
        },
        diagnostics: false,
      },
    ],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(@octokit|universal-user-agent|before-after-hook|json-with-bigint|content-type|fast-content-type-parse|gemoji)/)',
  ],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 30000,
}
