import js from '@eslint/js'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { importX } from 'eslint-plugin-import-x'
import tseslint from 'typescript-eslint'
import { noCycle } from './scripts/eslint-no-cycle.mjs'

const SERVER_FORBIDDEN = ['**/api/**', '**/actions/**', '**/sync/**']
const SERVER_MESSAGE = 'the server never imports the client (src/api), src/sync or src/actions'
/** The server's entrance and composition root: nothing below imports them. */
const TOP = ['**/start/**']
/** The floors above the store (services/, jobs/, present/, the edge and the routes). */
const ABOVE_STORE = [
  '**/services/**',
  '**/jobs/**',
  '**/present/**',
  '**/http/**',
  '**/routes/**',
  '**/pages/**',
]

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
  // The server's own floors (docs/architecture.md), top down: start/ (start-server.ts and
  // build-server.ts; open-state.ts, the composition root); routes/; http/, the edge; services/ and jobs/; present/; store/, archive/,
  // git/, outbound/ and seed/; grape/ and domain/, rules with no I/O. No import runs up a floor.
  // Type-only imports of the interfaces a layer receives (row types, a job's handle) are allowed.
  serverLayer('src/server/routes', [
    forbid(['**/store/**'], 'routes reach data through services (api.services), never the store'),
    forbid(['**/jobs/**'], 'routes never import jobs: services start them'),
    forbid(TOP, 'routes are mounted by the composition, never import it'),
    forbid(['**/pages/**'], 'routes never import the HTML pages (src/server/pages), which sit beside them'),
  ]),
  serverLayer('src/server/pages', [
    forbid(['**/store/**'], 'pages read through services, never the store', true),
    forbid(['**/jobs/**'], 'pages never import jobs: services start them'),
    forbid(
      [...TOP, '**/routes/**'],
      'pages are mounted by start/build-server.ts beside the routes, never import them',
    ),
  ]),
  serverLayer('src/server/http', [
    forbid(
      ['**/store/**', '!**/store/private-files.js'],
      'the edge never imports the store: it reaches data through the services it is handed',
    ),
    forbid(
      ['**/services/**', '**/present/**'],
      'the edge receives services; it imports only their types',
      true,
    ),
    forbid(
      [
        ...TOP,
        '**/routes/**',
        '**/pages/**',
        '**/jobs/**',
        '**/archive/**',
        '**/git/**',
        '**/outbound/**',
        '**/seed/**',
      ],
      'the edge (http/) sits below the routes: it imports grape/, domain/ and the types of services',
    ),
  ]),
  serverLayer('src/server/services', [
    forbid(
      ['**/routes/**', '**/pages/**', '**/http/**', ...TOP],
      'services know nothing of routes, the edge or the composition',
    ),
    forbid(
      ['**/jobs/**'],
      'services use jobs only through the interfaces start/open-state.ts hands them',
      true,
    ),
  ]),
  serverLayer('src/server/present', [
    forbid(['**/store/index.js'], 'presenters do no I/O: the service loads the records and passes them in'),
    forbid(
      ['**/store/**', '!**/store/index.js'],
      'presenters do no I/O: only the row types of the store',
      true,
    ),
    forbid(
      ['**/services/**', '**/jobs/**', '**/routes/**', '**/pages/**', '**/outbound/**', '**/http/**', ...TOP],
      'presenters import only domain/ and schema',
    ),
  ]),
  serverLayer('src/server/jobs', [
    forbid(['**/services/**'], 'jobs use services only through the interfaces they receive', true),
    forbid(
      ['**/routes/**', '**/pages/**', '**/present/**', '**/http/**', ...TOP],
      'jobs never import routes, the edge or presenters',
    ),
  ]),
  serverLayer('src/server/store', [
    forbid(
      [...TOP, ...ABOVE_STORE, '**/archive/**', '**/seed/**', '**/outbound/**'],
      'the store imports only git/, grape/, domain/ and schema',
    ),
  ]),
  serverLayer('src/server/archive', [
    forbid(
      [...TOP, ...ABOVE_STORE, '**/seed/**'],
      'archives read and write files over the store, nothing above it',
    ),
  ]),
  serverLayer('src/server/seed', [
    forbid(
      [...TOP, ...ABOVE_STORE, '**/store/**', '**/archive/**'],
      'a seed is parsed and checked without I/O',
    ),
  ]),
  serverLayer('src/server/outbound', [
    forbid(
      [...TOP, ...ABOVE_STORE, '**/store/**', '**/archive/**', '**/seed/**'],
      'outbound requests import only domain/ and schema',
    ),
  ]),
  serverLayer('src/server/git', [
    forbid(
      [...TOP, ...ABOVE_STORE, '**/store/**', '**/archive/**', '**/seed/**'],
      'git objects are rules with no I/O',
    ),
  ]),
  serverLayer('src/server/domain', [
    forbid(
      [...TOP, ...ABOVE_STORE, '**/store/**', '**/outbound/**', '**/archive/**', '**/seed/**'],
      'domain/ holds rules with no I/O: it imports only schema, grape/ and other domain rules',
    ),
  ]),
  serverLayer('src/server/ci', [
    forbid(
      [...TOP, ...ABOVE_STORE, '**/store/**', '**/outbound/**', '**/archive/**', '**/seed/**'],
      'ci/ compiles .gitlab-ci.yml with no I/O (files come through a reader): it imports only schema, grape/ and domain/',
    ),
  ]),
  serverLayer('src/server/grape', [
    {
      regex: '^\\.\\./(?!\\.\\./schema/)',
      message: "grape/ (GitLab's parameter, paging and error rules) imports only src/schema",
    },
    forbid(['fastify', '@fastify/*'], 'grape/ knows nothing of Fastify: the edge (http/) adapts it'),
  ]),
  // The type-aware cycle check (import-x/no-cycle skips `import type`).
  {
    files: ['src/**/*.ts'],
    plugins: { local: { rules: { 'no-cycle': noCycle } } },
    rules: { 'local/no-cycle': 'error' },
  },
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
