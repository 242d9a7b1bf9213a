/*
 * `rules:if` and `workflow:rules:if` expressions (`lib/gitlab/ci/pipeline/expression/`): variables
 * (`$VAR`, `${VAR}`), strings in single or double quotes, `null`, `/pattern/flags`, the operators
 * `==`, `!=`, `=~`, `!~`, `&&` (binding tighter) and `||`, and parentheses. Written from GitLab's
 * documented grammar, not translated.
 */

type Token =
  | { kind: 'variable'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'pattern'; source: string; flags: string }
  | { kind: 'null' }
  | { kind: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||' }
  | { kind: 'paren'; open: boolean }

type Value = string | null | RegExp | boolean

/** Thrown for an expression GitLab's lexer or parser refuses. */
export class ExpressionError extends Error {}

const LEXEMES: [RegExp, (m: RegExpExecArray) => Token][] = [
  [
    /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}|^\$([A-Za-z_][A-Za-z0-9_]*)/,
    (m) => ({ kind: 'variable', name: m[1] ?? m[2] ?? '' }),
  ],
  [/^"([^"]*)"|^'([^']*)'/, (m) => ({ kind: 'string', value: m[1] ?? m[2] ?? '' })],
  [/^\/((?:\\.|[^/\\])*)\/([ismx]*)/, (m) => ({ kind: 'pattern', source: m[1] ?? '', flags: m[2] ?? '' })],
  [/^null\b/, () => ({ kind: 'null' })],
  [/^(==|!=|=~|!~|&&|\|\|)/, (m) => ({ kind: 'op', op: m[1] as '==' })],
  [/^[()]/, (m) => ({ kind: 'paren', open: m[0] === '(' })],
]

function lex(text: string): Token[] {
  const tokens: Token[] = []
  let rest = text.trim()
  while (rest.length > 0) {
    const found = LEXEMES.map(([re, make]) => [re.exec(rest), make] as const).find(([m]) => m !== null)
    if (!found) throw new ExpressionError('invalid expression syntax')
    const [m, make] = found as [RegExpExecArray, (m: RegExpExecArray) => Token]
    tokens.push(make(m))
    rest = rest.slice(m[0].length).trimStart()
  }
  return tokens
}

/** A Ruby regexp's flags in JavaScript: `m` (dot matches newlines) is `s`; `x` is dropped. */
export function regexp(source: string, flags: string): RegExp {
  const js = [...new Set(flags.replace('x', '').replace('m', 's'))].join('')
  try {
    return new RegExp(source, js)
  } catch {
    throw new ExpressionError('invalid expression syntax')
  }
}

/** A pattern held in a variable (`$VAR =~ $PATTERN`) is read as `/.../flags` when it has that shape. */
function asPattern(value: Value): RegExp | null {
  if (value instanceof RegExp) return value
  if (typeof value !== 'string') return null
  const m = /^\/(.*)\/([ismx]*)$/s.exec(value)
  return m ? regexp(m[1] ?? '', m[2] ?? '') : null
}

const truthy = (v: Value) => (typeof v === 'string' ? v.length > 0 : v instanceof RegExp || v === true)

/**
 * Evaluates `text` against `variables`; an unset variable is `null`, an empty one falsy.
 * Throws `ExpressionError` for what GitLab calls `invalid expression syntax`.
 */
export function evaluate(text: string, variables: Record<string, string>): boolean {
  const tokens = lex(text)
  let at = 0
  const peek = () => tokens[at]
  const operand = (): Value => {
    const t = tokens[at++]
    if (!t) throw new ExpressionError('invalid expression syntax')
    if (t.kind === 'paren' && t.open) {
      const inner = or()
      const close = tokens[at++]
      if (close?.kind !== 'paren' || close.open) throw new ExpressionError('invalid expression syntax')
      return inner
    }
    if (t.kind === 'variable') return variables[t.name] ?? null
    if (t.kind === 'string') return t.value
    if (t.kind === 'null') return null
    if (t.kind === 'pattern') return regexp(t.source, t.flags)
    throw new ExpressionError('invalid expression syntax')
  }
  const comparison = (): Value => {
    const left = operand()
    const t = peek()
    if (t?.kind !== 'op' || t.op === '&&' || t.op === '||') return left
    at++
    const right = operand()
    if (t.op === '==' || t.op === '!=') {
      const same =
        (left instanceof RegExp ? String(left) : left) === (right instanceof RegExp ? String(right) : right)
      return t.op === '==' ? same : !same
    }
    const pattern = asPattern(right)
    if (!pattern) throw new ExpressionError('invalid expression syntax')
    const matches = typeof left === 'string' && pattern.test(left)
    return t.op === '=~' ? matches : !matches
  }
  const and = (): Value => {
    let value = comparison()
    while (peek()?.kind === 'op' && (peek() as { op: string }).op === '&&') {
      at++
      const right = comparison()
      value = truthy(value) && truthy(right)
    }
    return value
  }
  function or(): Value {
    let value = and()
    while (peek()?.kind === 'op' && (peek() as { op: string }).op === '||') {
      at++
      const right = and()
      value = truthy(value) || truthy(right)
    }
    return value
  }
  const result = or()
  if (at !== tokens.length) throw new ExpressionError('invalid expression syntax')
  return truthy(result)
}

/** Whether `text` parses (GitLab checks `rules:if` when it validates the configuration). */
export function isValidExpression(text: string): boolean {
  try {
    evaluate(text, {})
    return true
  } catch {
    return false
  }
}
