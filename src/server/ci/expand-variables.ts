/**
 * `ExpandVariables.expand`: `$VAR`, `${VAR}` and `%VAR%` replaced by the variable's value (a file
 * variable's content), an unknown variable by nothing. Not a shell: no quoting, no escapes.
 */
export function expandVariables(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$([a-zA-Z_][a-zA-Z0-9_]*)|\$\{([a-zA-Z_][a-zA-Z0-9_]*)\}|%([a-zA-Z_][a-zA-Z0-9_]*)%/g,
    (_m, bare?: string, braced?: string, percent?: string) =>
      Object.hasOwn(variables, (bare ?? braced ?? percent) as string)
        ? (variables[(bare ?? braced ?? percent) as string] as string)
        : '',
  )
}
