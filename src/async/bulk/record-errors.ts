import type { LogCode, LogEntry, RecordOutcome } from "./types.ts";

/** Problems found in one record; the ERROR entry carries the first code that applies, in this order. */
const PRIORITY: LogCode[] = [
  "INVALID_IDENTIFIER",
  "NOT_FOUND",
  "AMBIGUOUS_MATCH",
  "MISSING_REQUIRED_FIELD",
  "INVALID_FIELD_VALUE",
  "OTHER",
];

export interface Problem {
  code: LogCode;
  path: string | null;
  message: string;
}

export class RecordProblems {
  readonly items: Problem[] = [];

  add(code: LogCode, path: string | null, message: string) {
    this.items.push({ code, path, message });
    return this;
  }

  get empty() {
    return this.items.length === 0;
  }

  /** One ERROR entry listing every offending path, with the highest-priority code. */
  toLog(identifiers: Record<string, unknown>): LogEntry {
    const code = PRIORITY.find((c) => this.items.some((i) => i.code === c)) ?? "OTHER";
    const paths = [...new Set(this.items.map((i) => i.path).filter((p): p is string => p !== null))];
    const messages = this.items.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
    return {
      severity: "ERROR",
      code,
      message: messages.join("; ").slice(0, 2000),
      identifiers,
      affected_fields: paths.length > 0 ? paths : null,
    };
  }
}

export const failed = (
  index: number,
  identifiers: Record<string, unknown>,
  problems: RecordProblems,
): RecordOutcome => ({
  index,
  ok: false,
  logs: [problems.toLog(identifiers)],
});

export const succeeded = (index: number, logs: LogEntry[] = []): RecordOutcome => ({ index, ok: true, logs });

/** `{"<entity>": {<match fields as sent>}}`, or `{"record": {"index": n}}` without a usable identifier. */
export function identifiersOf(
  entity: string,
  record: unknown,
  fields: readonly string[],
  index: number,
): Record<string, unknown> {
  if (record && typeof record === "object" && !Array.isArray(record)) {
    const sent: Record<string, unknown> = {};
    for (const f of fields) {
      const v = (record as Record<string, unknown>)[f];
      if (typeof v === "number") sent[f] = v;
      // A log entry echoes an identifier, never a megabyte someone sent in its place.
      else if (typeof v === "string" && v !== "") sent[f] = v.slice(0, 255);
    }
    if (Object.keys(sent).length > 0) return { [entity]: sent };
  }
  return { record: { index } };
}
