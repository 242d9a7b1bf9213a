import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { importX } from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'

const SERVER_FORBIDDEN = ['**/api/**', '**/actions/**', '**/sync/**']
const SERVER_MESSAGE = 'the server never imports the client (src/api), src/sync or src/actions'

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No import cycles in src: a module's dependencies load before it. The resolver maps the
    // `.js` suffixes of the sources to their `.ts` files, as tsc does.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  // The layers: src/schema is the bottom (no project imports); src/api (the client) and src/server
  // (the reference server) share only src/schema; src/sync builds on src/api; src/actions and
  // src/cli sit on top, and only they touch the Actions toolkit (docs/architecture.md).
  layer('src/schema', ['../**'], 'src/schema imports nothing else from src'),
  layer(
    'src/api',
    ['**/server/**', '**/actions/**', '**/cli/**', '**/sync/**'],
    'the client (src/api) stands alone: no server, sync, actions or cli',
  ),
  {
    ...layer('src/server', SERVER_FORBIDDEN, SERVER_MESSAGE, [
      {
        group: ['**/store/db.js', '**/store/sqlite.js', '**/store/inspect.js'],
        message: 'the connection stays inside src/server/store: use the store facade (store/index.ts)',
      },
    ]),
    ignores: ['src/server/store/**'],
  },
  layer('src/server/store', SERVER_FORBIDDEN, SERVER_MESSAGE),
  // The server's own layers (docs/architecture.md): compose.ts builds services over the store and
  // the jobs, and hands route modules the services; presenters only shape what services loaded.
  // Type-only imports of the interfaces a layer receives (row types, a job's handle) are allowed.
  serverLayer('src/server/routes', [
    forbid(['**/store/**'], 'routes reach data through services (api.services), never the store'),
    forbid(['**/jobs/**'], 'routes never import jobs: services start them'),
  ]),
  serverLayer('src/server/services', [
    forbid(['**/routes/**', '**/compose.js'], 'services know nothing of routes or the composition'),
    forbid(['**/jobs/**'], 'services use jobs only through the interfaces compose.ts hands them', true),
  ]),
  serverLayer('src/server/present', [
    forbid(['**/store/index.js'], 'presenters do no I/O: the service loads the records and passes them in'),
    forbid(
      ['**/store/**', '!**/store/index.js'],
      'presenters do no I/O: only the row types of the store',
      true,
    ),
    forbid(
      ['**/services/**', '**/jobs/**', '**/routes/**', '**/outbound/**'],
      'presenters import only domain/ and schema',
    ),
  ]),
  serverLayer('src/server/jobs', [
    forbid(['**/services/**'], 'jobs use services only through the interfaces they receive', true),
    forbid(['**/routes/**', '**/present/**', '**/compose.js'], 'jobs never import routes or presenters'),
  ]),
  serverLayer('src/server/domain', [
    forbid(
      ['**/store/**', '**/services/**', '**/jobs/**', '**/routes/**', '**/present/**', '**/outbound/**'],
      'domain/ holds rules with no I/O: it imports only schema and other domain rules',
    ),
  ]),
  layer('src/sync', ['**/actions/**'], 'src/sync never imports src/actions'),
)

/**
 * `no-restricted-imports` for the files of `folder`: the `forbidden` paths, `@actions/*` and
 * `@octokit/*` (only src/actions and src/cli may use the Actions toolkit and Octokit), and any
 * `more` patterns.
 */
function layer(folder, forbidden, message, more = []) {
  const toolkit = {
    group: ['@actions/*', '@octokit/*'],
    message: 'only src/actions and src/cli import @actions/* and @octokit/*',
  }
  return {
    files: [`${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: forbidden, message }, toolkit, ...more] }],
    },
  }
}

/** One restricted group for `serverLayer`; `types` allows `import type` from it. */
function forbid(group, message, types = false) {
  return { group, message, ...(types ? { allowTypeImports: true } : {}) }
}

/**
 * The imports a folder of src/server may not make, as `@typescript-eslint/no-restricted-imports`
 * (it tells type-only imports apart, and leaves the server-wide `no-restricted-imports` in force).
 */
function serverLayer(folder, patterns) {
  return {
    files: [`${folder}/**/*.ts`],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
  }
}
