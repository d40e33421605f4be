/**
 * One structured JSON line per event, readable with `wrangler tail --format json` and in Workers
 * Logs. Never pass a secret: API keys appear by id, webhook secrets never.
 */
export type LogLevel = "info" | "warn" | "error";

export function log(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, event, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
