/** An error's message with its causes, for a log line (never a stack: it may carry request data). */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return `${err.message}${cause ? ` ${describeError(cause)}` : ""}`;
  }
  return String(err);
}

/**
 * SQLite's text for a violated constraint: `UNIQUE constraint failed: brands.slug` (several columns
 * comma-separated). `table` narrows the match to one table's constraints.
 */
export function constraintViolation(
  kind: "UNIQUE" | "NOT NULL",
  err: unknown,
  table?: string,
): string | null {
  const match = new RegExp(`${kind} constraint failed(?:: ([\\w., ]+))?`, "i").exec(describeError(err));
  if (!match) return null;
  const columns = match[1] ?? "";
  return table === undefined || columns.startsWith(`${table}.`) ? columns : null;
}

export const isUniqueViolation = (err: unknown, table?: string) =>
  constraintViolation("UNIQUE", err, table) !== null;
