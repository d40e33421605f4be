import type { Part } from "./parts.ts";

/**
 * One line of `<file>.errors.jsonl`, after the record's `line` (JSON array: `record`) in the
 * input, null when no record could be found.
 */
export interface FailedRecord {
  identifiers: Record<string, unknown> | null;
  code: string | null;
  message: string;
  affected_fields: string[] | null;
}

/**
 * Finds the input record each ERROR entry of a part's job is about: `{"record": {"index": n}}`
 * is the n-th record of the part's payload (from 0); `{"<entity>": {field: value, …}}` is the next
 * record of the part, in payload order, whose fields equal those values (the log echoes the match
 * identifiers as sent, strings cut to 255 characters).
 */
export class PartRecordFinder {
  private readonly byFields = new Map<string, Map<string, number[]>>();
  private readonly part: Pick<Part, "records" | "positions">;

  constructor(part: Pick<Part, "records" | "positions">) {
    this.part = part;
  }

  positionOf(identifiers: Record<string, unknown> | null | undefined): number | null {
    const [entity, sent] = Object.entries(identifiers ?? {})[0] ?? [];
    if (!entity || typeof sent !== "object" || sent === null) return null;
    const values = sent as Record<string, unknown>;
    if (entity === "record" && typeof values.index === "number")
      return this.part.positions[values.index] ?? null;
    const fields = Object.keys(values).sort();
    const queue = this.index(fields).get(keyOf(fields, values));
    return queue?.shift() ?? null;
  }

  private index(fields: string[]): Map<string, number[]> {
    const name = fields.join("\n");
    let map = this.byFields.get(name);
    if (!map) {
      map = new Map();
      this.part.records.forEach((record, i) => {
        const key = keyOf(fields, record);
        const position = this.part.positions[i];
        if (position === undefined) return;
        const queue = map?.get(key);
        if (queue) queue.push(position);
        else map?.set(key, [position]);
      });
      this.byFields.set(name, map);
    }
    return map;
  }
}

const keyOf = (fields: string[], values: Record<string, unknown>) =>
  JSON.stringify(
    fields.map((f) => (typeof values[f] === "string" ? String(values[f]).slice(0, 255) : values[f])),
  );
