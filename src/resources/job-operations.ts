import type { BulkOperations } from "../async/bulk/operation.ts";
import type { ExportOperations } from "../async/exports/operation.ts";
import { BULK_JOB_TYPES, EXPORT_JOB_TYPES } from "../db/schema/index.ts";
import { RESOURCES } from "./index.ts";

/*
 * The operations of the asynchronous jobs by the job type each runs, gathered from the RESOURCES
 * entries that carry them (where their routes mount); the jobs consumer runs each job with its
 * operation (src/queues.ts hands it these registries). Each job type has exactly one operation.
 */

export const BULK_OPERATIONS = byJobType<BulkOperations>(
  "bulk operations",
  RESOURCES.flatMap((entry) => entry.bulk ?? []),
  BULK_JOB_TYPES,
);

export const EXPORT_OPERATIONS = byJobType<ExportOperations>(
  "export operations",
  RESOURCES.flatMap((entry) => entry.exports ?? []),
  EXPORT_JOB_TYPES,
);

function byJobType<R extends Readonly<Record<string, { type: string }>>>(
  kind: string,
  operations: readonly R[keyof R][],
  types: readonly (keyof R & string)[],
): R {
  const byType = new Map<string, R[keyof R]>();
  for (const op of operations) {
    if (byType.has(op.type)) throw new Error(`${kind}: ${op.type} is carried twice`);
    byType.set(op.type, op);
  }
  const missing = types.filter((type) => !byType.has(type));
  if (missing.length > 0) throw new Error(`${kind}: no RESOURCES entry carries ${missing.join(", ")}`);
  // Every job type is present once (checked above), which is what R says.
  return Object.fromEntries(byType) as unknown as R;
}
