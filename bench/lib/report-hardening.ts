import { ACCEPT_TARGET_MS } from "./accept-shapes.ts";
import { ISOLATE_LIMIT_BYTES } from "./memory-stage.ts";
import type { Results } from "./results.ts";

/** The RESULTS.md sections of the bulk path's hardening: accept time per body shape, bulk-path heap. */

const f = (n: number | null | undefined, digits = 0) =>
  n === null || n === undefined || !Number.isFinite(n) ? "–" : n.toFixed(digits);
const mib = (bytes: number, digits = 1) => `${(bytes / 2 ** 20).toFixed(digits)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
/** Peak heap per chunk: "well under" the isolate limit. */
const CHUNK_PEAK_TARGET_BYTES = ISOLATE_LIMIT_BYTES / 4;
/** Retained-heap growth per job that counts as growth (noise of a shared machine's JIT and caches). */
const GROWTH_TOLERANCE_BYTES_PER_JOB = 64 * 1024;

export function acceptSection(r: Results): string[] {
  const a = r.accept;
  if (!a) return ["Not measured in this run (`npm run bench -- --only accept` measures it alone)."];
  const rows = a.shapes.map((s) => {
    const readMax = Math.max(...s.readMaxMs);
    const ok =
      s.p50Ms <= a.targetMs && readMax <= a.targetMs && s.statuses.every((x) => x === s.expectStatus);
    return `| ${s.shape} | \`${s.route.replace("/api/v1/", "")}\` | ${(s.bytes / 1e6).toFixed(2)} MB, ${s.detail} | ${[
      ...new Set(s.statuses),
    ].join(
      "/",
    )} | **${f(s.p50Ms)}** | ${s.acceptMs.map((x) => f(x)).join(", ")} | ${s.appMs.map((x) => f(x)).join(", ")} | ${f(
      readMax,
    )} (${s.reads.reduce((x, y) => x + y, 0)}) | ${ok ? "✅" : "❌"} |`;
  });
  const problems = a.shapes
    .filter((s) => s.problem !== undefined && s.route.endsWith("variants/bulk"))
    // A deep path is 64 segments of ".0": shown as a count.
    .map(
      (s) =>
        `- \`${s.shape}\`: ${s.problem?.replace(/(\.0){5,}/g, (m) => `.0 (×${m.length / 2})`).replace(/\|/g, "\\|")}`,
    );
  return [
    ...(a.run ? [`Measured by ${a.run}.`, ""] : []),
    `Each body POSTed ${a.runs}× to \`wrangler dev\`; *accept ms* from sending the POST to having read its answer (p50, then every run), *app ms* the answer's \`Server-Timing: app\` (inside the Worker), *concurrent read* the slowest \`GET /api/v1/store\` of those sent one after another while the POST was in flight (their count in parentheses; idle: ${f(a.idleReadMs, 1)} ms). Load average ${a.loadAverage ? `${a.loadAverage.map((x) => x.toFixed(2)).join(" at the start, ")} at the end` : "not recorded"} on this shared 2-core machine: the times stretch with it. Accepted jobs were canceled at once. Target: answer and concurrent read within ${a.targetMs} ms.`,
    "",
    "| shape | route | body | status | accept p50 ms | runs ms | app ms | concurrent read max ms (reads) | target |",
    "| --- | --- | --- | --- | ---: | --- | --- | ---: | --- |",
    ...rows,
    "",
    "The 400 answers (first problem listed, variants route):",
    "",
    ...problems,
  ];
}

export function memorySection(r: Results): string[] {
  const m = r.memory;
  if (!m) return ["Not measured in this run (`npm run bench -- --only memory` measures it alone)."];
  const payloads = Object.entries(m.payloadBytes)
    .map(([k, b]) => `${k} ${(b / 1e6).toFixed(2)} MB`)
    .join(", ");
  const rows = m.jobs.map(
    (j, i) =>
      `| ${i + 1} | ${j.key} | ${j.status} | ${j.messages} | ${mib(j.memory.acceptPeakBytes)} | ${mib(j.memory.messagePeakBytes)} | ${mib(
        j.memory.messagePeakMedianBytes,
      )} | ${mib(j.memory.retainedBytes, 2)} | ${mib(j.memory.arrayBufferBytes)} | ${j.memory.gcs} | ${f(j.wallMs / 1000, 1)} |`,
  );
  return [
    ...(m.run ? [`Measured by ${m.run}.`, ""] : []),
    `${m.jobs.length} consecutive jobs (${payloads}; each products job creates products of its own, each variants job updates the same variants) run by the served bundle in Node's V8 (\`bench/bulk-inprocess.ts\` under \`--expose-gc\`, node:sqlite, in-memory R2 and queues), not in workerd, whose per-isolate figures cannot be read from outside. Before every handler call a full GC gives the baseline; the peak is the largest heap V8 reported before any GC inside the call or right after it. *Retained* is the heap after a full GC once the job is final (the harness drops the payload from its in-memory R2 first; R2 is not in the isolate).`,
    "",
    `- Peak JS heap per chunk message above its baseline: **${mib(m.messagePeakMaxBytes)}** max over all chunks (median of the jobs' medians ${mib(m.messagePeakMedianBytes)}); accept of a 10 MB body: ${mib(m.acceptPeakMaxBytes)} max.`,
    `- Retained heap after each job: first ${mib(m.retained.firstBytes, 2)}, last ${mib(m.retained.lastBytes, 2)}, max ${mib(m.retained.maxBytes, 2)}, min ${mib(m.retained.minBytes, 2)}; least-squares slope ${kib(m.slopeBytesPerJob)}/job over all jobs, ${kib(m.slopeSecondHalfBytesPerJob)}/job over the second half.`,
    `- ${f(m.seconds)} s for the stage (a full GC before every message makes it slower than the in-process timing run).`,
    "",
    "| job | type | status | messages | accept peak | chunk peak (max) | chunk peak (median) | retained after | ArrayBuffers | GCs in calls | s |",
    "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
  ];
}

/** Lines for the Targets section. */
export function hardeningTargets(r: Results): string[] {
  const out: string[] = [];
  if (r.accept) {
    const slowest = [...r.accept.shapes].sort((x, y) => y.p50Ms - x.p50Ms)[0];
    const readMax = Math.max(...r.accept.shapes.flatMap((s) => s.readMaxMs));
    const ok = r.accept.shapes.every((s) => s.p50Ms <= ACCEPT_TARGET_MS);
    out.push(
      `- Worst-case 10 MB bulk bodies: slowest answer ${f(slowest?.p50Ms)} ms (${slowest?.shape}, ${slowest?.route}; target ≤ ${ACCEPT_TARGET_MS} ms for every shape) ${ok ? "✅" : "❌"}; slowest concurrent read ${f(readMax)} ms (target ≤ ${ACCEPT_TARGET_MS} ms) ${readMax <= ACCEPT_TARGET_MS ? "✅" : "❌"}`,
    );
  }
  if (r.memory) {
    const m = r.memory;
    const peakOk =
      m.messagePeakMaxBytes <= CHUNK_PEAK_TARGET_BYTES && m.acceptPeakMaxBytes <= CHUNK_PEAK_TARGET_BYTES;
    const growthOk = m.slopeSecondHalfBytesPerJob <= GROWTH_TOLERANCE_BYTES_PER_JOB;
    out.push(
      `- Bulk-path heap in Node's V8: peak per chunk ${mib(m.messagePeakMaxBytes)}, accept ${mib(m.acceptPeakMaxBytes)} (target ≤ ${mib(CHUNK_PEAK_TARGET_BYTES, 0)}, a quarter of the 128 MiB isolate limit) ${peakOk ? "✅" : "❌"}; retained heap over ${m.jobs.length} jobs ${mib(m.retained.firstBytes, 2)} → ${mib(m.retained.lastBytes, 2)}, slope ${kib(m.slopeSecondHalfBytesPerJob)}/job over the second half (target: no growth, ≤ ${kib(GROWTH_TOLERANCE_BYTES_PER_JOB)}/job) ${growthOk ? "✅" : "❌"}`,
    );
  }
  return out;
}
