/** An instant as stored and rendered: ISO 8601 in UTC, whole seconds (`2026-01-31T12:00:00Z`). */
export const isoSeconds = (ms: number = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** Today's UTC date (`YYYY-MM-DD`). */
export const utcDate = (ms: number = Date.now()) => new Date(ms).toISOString().slice(0, 10);
