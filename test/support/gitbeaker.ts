/** What gitbeaker makes of a refused call: the status and the description it read from the body. */
export async function refusal(call: Promise<unknown>) {
  const err = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { cause?: { description?: string; response?: { status: number } } } | undefined
  return [err?.cause?.response?.status, err?.cause?.description]
}
