import type { ExportOperation, ExportOperations } from "../async/exports/operation.ts";
import { EXPORT_JOB_TYPES } from "../db/schema/index.ts";
import { RESOURCES } from "./index.ts";

/**
 * Every export operation by the job type it runs, gathered from the RESOURCES entries that carry
 * them; the jobs consumer runs each export job with its operation (src/queues.ts hands it this
 * registry). Each export job type has exactly one operation.
 */
export const EXPORT_OPERATIONS = byJobType(RESOURCES.flatMap((entry) => entry.exports ?? []));

function byJobType(operations: readonly ExportOperation[]): ExportOperations {
  const byType = new Map<string, ExportOperation>();
  for (const op of operations) {
    if (byType.has(op.type)) throw new Error(`export operations: ${op.type} is carried twice`);
    byType.set(op.type, op);
  }
  const missing = EXPORT_JOB_TYPES.filter((type) => !byType.has(type));
  if (missing.length > 0)
    throw new Error(`export operations: no RESOURCES entry carries ${missing.join(", ")}`);
  // Every export job type is present once (checked above), which is what ExportOperations says.
  return Object.fromEntries(byType) as ExportOperations;
}
