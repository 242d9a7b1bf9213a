/**
 * The serializer of a response schema written at build time, if the build wrote one: in the CLI's
 * bundle (serve.cjs) scripts/prebuilt-serializers.mjs replaces this module with a lookup of the
 * schemas it names, so that V8's code cache of serve.cjs holds their code. Here (tests, the
 * package's startServer()) there is none, and the server compiles the same serializer at run time.
 */
export function prebuiltSerializer(_schema: object): ((data: unknown) => string) | undefined {
  return undefined
}
