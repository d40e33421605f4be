import { env } from "cloudflare:workers";

/**
 * Fingerprints of the database content, to check that a refused request changed nothing.
 */

let fingerprintSql: { table: string; sql: string }[] | undefined;

async function fingerprintStatements() {
  if (!fingerprintSql) {
    const { results: tables } = await env.DB.prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name`,
    ).all<{ name: string }>();
    const infos = await env.DB.batch<{ name: string }>(
      tables.map((t) => env.DB.prepare(`SELECT name FROM pragma_table_info(?)`).bind(t.name)),
    );
    fingerprintSql = tables.map((t, i) => {
      const columns = (infos[i]?.results ?? [])
        .map((c) => c.name)
        .filter((c) => !(t.name === "api_keys" && c === "last_used_at"))
        .map((c) => {
          const q = `"${c.replace(/"/g, '""')}"`;
          return `CASE WHEN length(${q}) > 200 THEN length(${q}) || ':' || substr(${q}, 1, 40) || substr(${q}, -40) ELSE ${q} END`;
        });
      return {
        table: t.name,
        sql: `SELECT count(*) AS n, group_concat(r, char(30)) AS rows FROM (SELECT json_array(${columns.join(", ")}) AS r FROM "${t.name}")`,
      };
    });
  }
  return fingerprintSql;
}

/**
 * The content of every application table (or of `only`) as compact text, in one round trip: long
 * values are reduced to their length and both ends so the text stays small while still catching
 * any change. `api_keys.last_used_at` is left out (written off the response path).
 */
export async function dbFingerprint(only?: ReadonlySet<string>): Promise<Map<string, string>> {
  const statements = (await fingerprintStatements()).filter((f) => !only || only.has(f.table));
  if (statements.length === 0) return new Map();
  const results = await env.DB.batch<{ n: number; rows: string | null }>(
    statements.map((f) => env.DB.prepare(f.sql)),
  );
  return new Map(
    statements.map((f, i) => {
      const row = results[i]?.results[0];
      return [f.table, `${row?.n}|${row?.rows ?? ""}`];
    }),
  );
}

/**
 * Row counts of every application table and the content of `only`, in one round trip.
 */
async function countsAndContent(only: ReadonlySet<string>) {
  const statements = await fingerprintStatements();
  const counts = statements.map((f, i) => `(SELECT count(*) FROM "${f.table}") AS c${i}`).join(", ");
  const content = statements.filter((f) => only.has(f.table));
  const [first, ...rest] = await env.DB.batch<Record<string, unknown>>([
    env.DB.prepare(`SELECT ${counts}`),
    ...content.map((f) => env.DB.prepare(f.sql)),
  ]);
  const row = first?.results[0] ?? {};
  return {
    counts: new Map(statements.map((f, i) => [f.table, String(row[`c${i}`])])),
    content: new Map(
      content.map((f, i) => {
        const r = rest[i]?.results[0] as { n: number; rows: string | null } | undefined;
        return [f.table, `${r?.n}|${r?.rows ?? ""}`];
      }),
    ),
  };
}

const countOf = (fingerprint: string | undefined) => fingerprint?.slice(0, fingerprint.indexOf("|"));

/**
 * Watches the database across the requests of one route. After an accepted write it takes the
 * full fingerprint (every table's content) and learns which tables the route writes; after a
 * refused one it compares the row counts of every table and the content of the tables the route
 * writes, and every `fullEvery`-th time the full fingerprint again. (Reading every table after
 * every request would make the fuzzing several times slower, for tables no write route touches.)
 */
export class DbWatch {
  private reference = new Map<string, string>();
  private readonly written = new Set<string>(["idempotency_keys"]);
  private refused = 0;
  /** Full fingerprints taken, and refusals that needed no look (for the report). */
  taken = 0;
  skipped = 0;

  constructor(private readonly fullEvery = 40) {}

  async start() {
    this.reference = await dbFingerprint();
  }

  /** After an accepted request: the new state becomes the reference; returns the tables it changed. */
  async accept(): Promise<string[]> {
    this.taken++;
    const now = await dbFingerprint();
    const diff = changedTables(this.reference, now);
    for (const t of diff) this.written.add(t);
    this.reference = now;
    return diff;
  }

  /**
   * After a refused request: the tables whose content differs from the reference (should be none).
   * A refusal whose `Server-Timing` reports no D1 round trip ran no statement at all (every write
   * goes through `runWrite`/`batch`/`countTrip`, which count one), so it needs no look, except for
   * the periodic full fingerprint, which would still catch a write that slipped past the counting.
   */
  async refuse(roundTrips = Number.POSITIVE_INFINITY): Promise<string[]> {
    const full = ++this.refused % this.fullEvery === 0;
    if (roundTrips === 0 && !full) {
      this.skipped++;
      return [];
    }
    if (full) {
      this.taken++;
      return changedTables(this.reference, await dbFingerprint());
    }
    const { counts, content } = await countsAndContent(this.written);
    const diff = new Set<string>();
    for (const [table, n] of counts) if (countOf(this.reference.get(table)) !== n) diff.add(table);
    for (const [table, text] of content) if (this.reference.get(table) !== text) diff.add(table);
    return [...diff];
  }
}

/** Names of the tables whose content differs. */
function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n));
}
