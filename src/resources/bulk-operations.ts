import type { BulkOperation, BulkOperations } from "../async/bulk/operation.ts";
import { BULK_JOB_TYPES } from "../db/schema/index.ts";
import { RESOURCES } from "./index.ts";

/**
 * Every bulk operation by the job type it runs, gathered from the RESOURCES entries that carry them
 * (where their routes mount); the jobs consumer runs each job with its operation's processor
 * (src/queues.ts hands it this registry). Each job type has exactly one operation.
 */
export const BULK_OPERATIONS = byJobType(RESOURCES.flatMap((entry) => entry.bulk ?? []));

function byJobType(operations: readonly BulkOperation[]): BulkOperations {
  const byType = new Map<string, BulkOperation>();
  for (const op of operations) {
    if (byType.has(op.type)) throw new Error(`bulk operations: ${op.type} is carried twice`);
    byType.set(op.type, op);
  }
  const missing = BULK_JOB_TYPES.filter((type) => !byType.has(type));
  if (missing.length > 0)
    throw new Error(`bulk operations: no RESOURCES entry carries ${missing.join(", ")}`);
  // Every job type is present once (checked above), which is what BulkOperations says.
  return Object.fromEntries(byType) as BulkOperations;
}
