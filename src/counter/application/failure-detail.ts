/** Internal detail of a thrown value, for log fields only (never for public messages). */

export function failureDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const own = `${error.name}: ${error.message}`;
  // AppError keeps the underlying failure as `cause`; that is the useful part in logs.
  return error.cause === undefined ? own : `${own} (cause: ${failureDetail(error.cause)})`;
}
