import { environmentSlug, guessTier } from '../../../src/server/ci/environment.js'
import { scopeRank } from '../../../src/server/domain/ci-variable-rules.js'

// Expected slugs' suffixes are the last 6 base-36 digits of the name's SHA-256, worked out apart.
it('slugs an environment name as Gitlab::Slug::Environment', () => {
  expect(environmentSlug('production')).toBe('production')
  expect(environmentSlug('prod-')).toBe('prod')
  expect(environmentSlug('1st')).toBe('env-1st-sru2wu')
  expect(environmentSlug('review/ci')).toBe('review-ci-oxcorx')
  expect(environmentSlug('a'.repeat(30))).toBe(`${'a'.repeat(17)}-16ttu2`)
})

it('guesses the tier from the name as Environment#guess_tier, in its order', () => {
  expect(['review/x', 'QA', 'pre-live', 'Production', 'canary'].map(guessTier)).toEqual([
    'development',
    'testing',
    'staging',
    'production',
    'other',
  ])
})

it('ranks environment scopes: * everywhere, wildcards that match, the very name above both', () => {
  expect(scopeRank('*', undefined)).toBe(0)
  expect(scopeRank('review/*', undefined)).toBeUndefined()
  expect(scopeRank('review/*', 'review/a/b')).toBe(1)
  expect(scopeRank('*-eu', 'prod-eu')).toBe(1)
  expect(scopeRank('review/*', 'Review/a')).toBeUndefined()
  expect(scopeRank('re.iew/*', 'review/a')).toBeUndefined()
  expect(scopeRank('production', 'production')).toBe(2)
  expect(scopeRank('production', 'production-2')).toBeUndefined()
})
