/** GitLab's `ExpandVariables::VARIABLES_REGEXP`: `$VAR`, `${VAR}` and `%VAR%`. Not a shell: no quoting, no escapes. */
const VARIABLE = /\$([a-zA-Z_][a-zA-Z0-9_]*)|\$\{([a-zA-Z_][a-zA-Z0-9_]*)\}|%([a-zA-Z_][a-zA-Z0-9_]*)%/g

type Variables = Readonly<Record<string, string>>

/** `ExpandVariables.expand`: each variable replaced by its value (a file variable's content), an unknown one by nothing. */
export function expandVariables(text: string, variables: Variables): string {
  return text.replace(VARIABLE, (_m, bare?: string, braced?: string, percent?: string) => {
    const name = (bare ?? braced ?? percent) as string
    return Object.hasOwn(variables, name) ? (variables[name] as string) : ''
  })
}

/** `ExpandVariables.expand_existing`: as `expandVariables`, but an unknown variable is left as written. */
export function expandExistingVariables(text: string, variables: Variables): string {
  return text.replace(VARIABLE, (written, bare?: string, braced?: string, percent?: string) => {
    const name = (bare ?? braced ?? percent) as string
    return Object.hasOwn(variables, name) ? (variables[name] as string) : written
  })
}
