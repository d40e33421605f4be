import type { z } from "@hono/zod-openapi";
import { RecordProblems } from "./record-errors.ts";
import type { ChunkRecord } from "./types.ts";

/**
 * Record-level validation of bulk payloads with zod: a missing required field is
 * MISSING_REQUIRED_FIELD, anything else wrong (types, formats, unknown fields) INVALID_FIELD_VALUE.
 * Paths use dots and numeric indices. (`reportInput`: zod 4 leaves `input` out of issues
 * otherwise, and every wrong type would read as a missing field.)
 */
function addIssues(issues: z.core.$ZodIssue[], problems: RecordProblems, prefix: string) {
  for (const issue of issues) {
    const base = [prefix, ...issue.path.map(String)].filter((p) => p !== "").join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        problems.add("INVALID_FIELD_VALUE", base ? `${base}.${key}` : key, "unknown field");
    } else if (issue.code === "invalid_type" && issue.input === undefined) {
      problems.add("MISSING_REQUIRED_FIELD", base || null, "is required");
    } else {
      problems.add("INVALID_FIELD_VALUE", base || null, issue.message);
    }
  }
}

/**
 * Field-by-field validation of a record object (a strict object schema without object-level
 * refinements): every offending path is recorded, and the valid fields are returned with the names
 * of the invalid ones, so the record's other checks (matching, required fields) still run and its
 * one ERROR entry carries the first code that applies with every offending path.
 */
export function validateFields<T extends z.ZodObject>(
  schema: T,
  data: unknown,
  problems: RecordProblems,
): { value: Partial<z.output<T>>; invalid: Set<string> } {
  const value: Record<string, unknown> = {};
  const invalid = new Set<string>();
  if (!data || typeof data !== "object" || Array.isArray(data)) {
    problems.add("INVALID_FIELD_VALUE", null, "must be an object");
    return { value: value as Partial<z.output<T>>, invalid };
  }
  const record = data as Record<string, unknown>;
  const shape = schema.shape as Record<string, z.ZodType>;
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(shape, key)) {
      problems.add("INVALID_FIELD_VALUE", key, "unknown field");
      invalid.add(key);
    }
  }
  const optional = optionalFields(schema);
  for (const [key, fieldSchema] of Object.entries(shape)) {
    if (record[key] === undefined && optional.has(key)) continue;
    const result = fieldSchema.safeParse(record[key], { reportInput: true });
    if (!result.success) {
      addIssues(result.error.issues, problems, key);
      invalid.add(key);
    } else if (result.data !== undefined) value[key] = result.data;
  }
  return { value: value as Partial<z.output<T>>, invalid };
}

const optionalOf = new WeakMap<z.ZodObject, Set<string>>();

/** The fields of `schema` that accept a missing value (and leave it out): an absent one needs no parse. */
function optionalFields(schema: z.ZodObject): Set<string> {
  let optional = optionalOf.get(schema);
  if (!optional) {
    const shape = schema.shape as Record<string, z.ZodType>;
    optional = new Set(
      Object.keys(shape).filter((key) => {
        const result = shape[key]?.safeParse(undefined);
        return result?.success === true && result.data === undefined;
      }),
    );
    optionalOf.set(schema, optional);
  }
  return optional;
}

/**
 * validateFields for a record matched by `fields` (the identifiers of match_by `by`): each must be
 * sent and valid, else INVALID_IDENTIFIER. Null when one is missing or invalid: the record cannot
 * be matched.
 */
export function validateMatchable<T extends z.ZodObject>(
  schema: T,
  data: unknown,
  match: { by: string; fields: readonly string[] },
  problems: RecordProblems,
) {
  const raw = (data ?? {}) as Record<string, unknown>;
  const missing = match.fields.filter((f) => raw[f] === undefined || raw[f] === null || raw[f] === "");
  const result = validateFields(schema, data, problems);
  for (const f of missing) problems.add("INVALID_IDENTIFIER", f, `is required to match by ${match.by}`);
  const badKeys = match.fields.filter((f) => !missing.includes(f) && result.invalid.has(f));
  for (const f of badKeys) problems.add("INVALID_IDENTIFIER", f, "is not a valid identifier");
  return missing.length > 0 || badKeys.length > 0 ? null : result;
}

/** A record of a chunk with the problems its check found and, when it can be planned, what the check returned. */
export interface CheckedRecord<V> {
  chunkRecord: ChunkRecord;
  problems: RecordProblems;
  valid?: V;
}

/**
 * Each record of a chunk checked by `check` (which adds what it finds to `problems`), in payload
 * order: a record whose check returns null or undefined cannot be planned and fails with its problems.
 */
export const checkRecords = <V>(
  records: readonly ChunkRecord[],
  check: (data: unknown, problems: RecordProblems) => V | null | undefined,
): CheckedRecord<V>[] =>
  records.map((chunkRecord) => {
    const problems = new RecordProblems();
    return { chunkRecord, problems, valid: check(chunkRecord.data, problems) ?? undefined };
  });
