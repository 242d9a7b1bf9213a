import { expandExistingVariables, expandVariables } from '../../../src/server/ci/expand-variables.js'

const vars = { CI_COMMIT_REF_NAME: 'main', DIR: 'ci', EMPTY: '' }

describe('expandVariables (ExpandVariables.expand)', () => {
  it('expands $VAR, ${VAR} and %VAR%, and an unknown variable to nothing', () => {
    expect(expandVariables('$DIR/${CI_COMMIT_REF_NAME}/%DIR%.yml', vars)).toBe('ci/main/ci.yml')
    expect(expandVariables('/$MISSING/x-${MISSING}-%MISSING%.yml', vars)).toBe('//x--.yml')
    expect(expandVariables('$EMPTY$DIR', vars)).toBe('ci')
  })
  it('reads no inherited property as a variable', () => {
    expect(expandVariables('$constructor/${toString}', vars)).toBe('/')
  })
})

describe('expandExistingVariables (ExpandVariables.expand_existing)', () => {
  it('expands defined variables in each form and leaves unknown ones as written', () => {
    expect(expandExistingVariables('$DIR/**/%DIR%/${MISSING}/$1/%MISSING%', vars)).toBe(
      'ci/**/ci/${MISSING}/$1/%MISSING%',
    )
  })
})
