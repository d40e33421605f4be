import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SQLInputValue } from "node:sqlite";
import type { RoundTrip } from "./d1-shim.ts";
import { openDb, statementCache } from "./database.ts";
import { log } from "./log.ts";
import { BENCH_DIR } from "./paths.ts";
import { startDevServer, stopDevServer } from "./server.ts";

/**
 * What workerd spends decoding D1's answers to one request, which the `Server-Timing` phases leave
 * inside `d1-wait`: the binding reads the answer as text, parses it, and builds one object per row
 * before the Worker's `await` resumes. Deployed, that is Worker CPU. Measured in workerd itself: the
 * answers of each scenario's round trips, built from its captured statements over the benchmark's
 * copy of the database in the shape local D1 sends them, POSTed to a probe Worker
 * (d1-decode-probe.js) under its own `wrangler dev`, which decodes each many times per POST; the median of
 * several POSTs' means.
 */
export async function measureD1Decode(o: {
  scenarios: { key: string; trips: RoundTrip[] }[];
  floorFile: string;
  workDir: string;
  /** Decodes per POST, and POSTs per answer (their median is the figure). */
  iterations: number;
  runs: number;
  errors: string[];
}): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const answers = d1Answers(o.floorFile, o.scenarios);
  const config = probeConfig(join(o.workDir, "d1-decode-probe"));
  let server: Awaited<ReturnType<typeof startDevServer>> | undefined;
  try {
    server = await startProbe(config, o.workDir);
    for (const { key, bodies } of answers) {
      let total = 0;
      for (const body of bodies) {
        // A POST's mean varies with when V8 collects garbage: the median of several POSTs' means,
        // after one that warms the probe's code.
        const means: number[] = [];
        for (let run = 0; run <= o.runs; run++) {
          const res = await fetch(`${server.origin}/decode?iterations=${o.iterations}`, {
            method: "POST",
            body,
          });
          const { ms } = (await res.json()) as { ms: number };
          if (run > 0) means.push(ms);
        }
        total += means.sort((a, b) => a - b)[means.length >> 1] ?? 0;
      }
      out.set(key, total);
      log(
        `${key}: D1 answers ${(bodies.reduce((n, b) => n + b.length, 0) / 1024).toFixed(0)} KiB, decode in workerd ${total.toFixed(2)} ms`,
      );
    }
  } catch (error) {
    o.errors.push(`D1 decode probe: ${(error as Error).message}`);
  } finally {
    if (server) await stopDevServer(server);
  }
  return out;
}

/**
 * The probe in a folder of its own, as the served bundle is: with `no_bundle`, wrangler gathers
 * every module file under the entry's folder, so the entry does not sit among the bench's sources.
 */
function probeConfig(dir: string): string {
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(BENCH_DIR, "lib", "d1-decode-probe.js"), join(dir, "index.js"));
  const config = join(dir, "wrangler.toml");
  writeFileSync(
    config,
    [
      'name = "d1-decode-probe"',
      `main = "${join(dir, "index.js")}"`,
      "no_bundle = true",
      'compatibility_date = "2026-10-01"',
      "",
    ].join("\n"),
  );
  return config;
}

/** Starts the probe's `wrangler dev`, once more after a failed start (its log says why). */
async function startProbe(config: string, workDir: string) {
  const start = (attempt: number) =>
    startDevServer({
      persistTo: join(workDir, `d1-decode-state-${attempt}`),
      config,
      secret: "none",
      logFile: join(workDir, "d1-decode-probe.log"),
    });
  try {
    return await start(1);
  } catch (error) {
    log(`D1 decode probe: ${(error as Error).message}; starting it again`);
    return await start(2);
  }
}

/** Each scenario's round trips answered as local D1 answers them: per statement, columns and rows. */
function d1Answers(floorFile: string, scenarios: { key: string; trips: RoundTrip[] }[]) {
  const db = openDb(floorFile, true);
  try {
    const prepared = statementCache(db);
    const meta = { duration: 0, changes: 0, last_row_id: 0, rows_read: 0, rows_written: 0 };
    return scenarios.map(({ key, trips }) => ({
      key,
      bodies: trips.map((trip) =>
        JSON.stringify(
          trip.statements.map((s) => {
            const stmt = prepared(s.sql);
            const columns = stmt.columns().map((c) => c.name);
            stmt.setReturnArrays(true);
            const rows = stmt.all(...(s.params as SQLInputValue[]));
            stmt.setReturnArrays(false);
            return { success: true, meta, results: { columns, rows } };
          }),
        ),
      ),
    }));
  } finally {
    db.close();
  }
}
