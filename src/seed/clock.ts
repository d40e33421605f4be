/** Every seeded timestamp is an offset from this instant, so rows are the same on every run. */
const SEED_EPOCH_MS = Date.UTC(2026, 0, 5, 9, 0, 0);

/** ISO 8601 UTC with whole seconds and `Z` (the storage format), `minutes` after the seed epoch. */
export const seedTime = (minutes: number): string =>
  new Date(SEED_EPOCH_MS + Math.round(minutes * 60_000)).toISOString().replace(/\.\d{3}Z$/, "Z");
