/**
 * Promise.all that answers only once every call has finished, then throws the first failure.
 * Promise.all rejects at the first failure while its siblings run on (and retry), so a tool's
 * error could leave upstream requests going out after it answered.
 */
export async function settleAll<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const results = await Promise.allSettled(promises as readonly Promise<unknown>[]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
