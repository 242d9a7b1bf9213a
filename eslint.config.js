import js from '@eslint/js'
import tseslint from 'typescript-eslint'

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
    // DESIGN.md's arrows: the server never imports the client, the client never imports the server,
    // and only src/actions/ touches the Actions toolkit.
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/api/**', '@actions/*'] }] },
  },
  {
    files: ['src/api/**/*.ts', 'src/schema/**/*.ts', 'src/sync/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/**', '@actions/*'] }] },
  },
)
