import type { Results } from "./results.ts";
import { READ_SLACK_MS, readLimitMs, TARGET_RTT_MS, VARIANTS_JOB_TARGET_MS } from "./rtt-stage.ts";

/** The RESULTS.md section of the simulated deployment: reads and 10 MB jobs per D1 round trip. */

const f = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined || !Number.isFinite(n) ? "–" : n.toFixed(digits);
const mark = (ok: boolean) => (ok ? "✅" : "❌");

export function rttSection(r: Results): string[] {
  const s = r.rtt;
  if (!s || s.settings.length === 0)
    return ["Not measured in this run (`npm run bench -- --only rtt --d1-rtt 5,25,75` measures it alone)."];
  const rtts = s.settings.map((x) => x.rttMs);
  const target = s.settings.find((x) => x.rttMs === TARGET_RTT_MS);
  const keys = s.settings[0]?.reads.map((x) => x.key) ?? [];
  // What one trivial D1 round trip adds here beyond the simulated RTT: wrangler dev's local D1
  // transport and the timer's overshoot, which a deployment's RTT does not carry on top.
  const localTripMs = (x: (typeof s.settings)[number]) => {
    const floor = x.reads.find((y) => y.key === "http_floor");
    const store = x.reads.find((y) => y.key === "store");
    return floor && store && store.roundTrips === 1 ? store.p50Ms - floor.p50Ms - x.rttMs : null;
  };
  const httpFloorAt = (x: (typeof s.settings)[number]) => x.reads.find((y) => y.key === "http_floor")?.p50Ms;
  const targetTripMs = target ? localTripMs(target) : null;
  const targetHttpMs = target ? httpFloorAt(target) : undefined;
  const readRows = keys.map((key) => {
    const cells = s.settings.map((x) => {
      const read = x.reads.find((y) => y.key === key);
      return read ? `${f(read.p50Ms)} (${read.roundTrips ?? "?"})` : "–";
    });
    const at = target?.reads.find((y) => y.key === key);
    if (at?.reference) return `| ${key} (reference) | ${cells.join(" | ")} | – | – |`;
    const limit = at ? readLimitMs(at, TARGET_RTT_MS) : null;
    const verdict = at && limit !== null ? `${f(limit, 0)} ${mark(at.p50Ms <= limit)}` : "–";
    const bare =
      at && at.roundTrips !== null && targetTripMs !== null && targetHttpMs !== undefined
        ? at.p50Ms - targetHttpMs - at.roundTrips * targetTripMs
        : null;
    const bareVerdict = bare !== null && limit !== null ? `${f(bare)} ${mark(bare <= limit)}` : "–";
    return `| ${key} | ${cells.join(" | ")} | ${verdict} | ${bareVerdict} |`;
  });
  const perTrip = s.settings.flatMap((x) => {
    const trip = localTripMs(x);
    return trip === null ? [] : [`${f(trip)} ms at RTT ${x.rttMs} ms`];
  });
  const jobKeys = s.settings[0]?.jobs.map((x) => x.key) ?? [];
  const jobRows = jobKeys.map((key) => {
    const cells = s.settings.map((x) => {
      const job = x.jobs.find((y) => y.key === key);
      if (!job?.wallMs) return job?.error ? "error" : "–";
      return `${f(job.wallMs / 1000, 2)} s (${Math.round(job.records / (job.wallMs / 1000))}/s)${job.status === "done" ? "" : ` ${job.status}`}`;
    });
    const at = target?.jobs.find((y) => y.key === key);
    const verdict =
      key === "variants_update" && at?.wallMs
        ? `≤ ${VARIANTS_JOB_TARGET_MS / 1000} s ${mark(at.wallMs <= VARIANTS_JOB_TARGET_MS && at.status === "done")}`
        : "";
    const records = s.settings[0]?.jobs.find((y) => y.key === key);
    return `| ${key} (${records?.records ?? "?"} records, ${f((records?.payloadBytes ?? 0) / 1e6, 1)} MB) | ${cells.join(" | ")} | ${verdict} |`;
  });
  const head = (first: string, extra: string[] = []) => [
    `| ${first} | ${rtts.map((x) => `RTT ${x} ms`).join(" | ")} | target at ${TARGET_RTT_MS} ms |${extra.map((e) => ` ${e} |`).join("")}`,
    `| --- | ${rtts.map(() => "---:").join(" | ")} | --- |${extra.map(() => " --- |").join("")}`,
  ];
  return [
    ...(s.run ? [`Measured by ${s.run}.`, ""] : []),
    `\`wrangler dev\` restarted per setting with \`--var SIMULATED_D1_RTT_MS:<rtt>\` and \`--var SIMULATED_QUEUE_DELAY_MS:${s.queueDelayMs}\` (src/simulated-latency.ts: every D1 call of the served bundle, \`withSession\` included, waits the round trip before it is answered; every queue batch waits the delivery delay; inert unless \`ENVIRONMENT\` is \`development\`). Reads: p50 at c=1 over ${s.readSeconds} s after 3 warm-up requests, D1 round trips (from \`Server-Timing\`) in parentheses; target: p50 ≤ round trips × ${TARGET_RTT_MS} ms + ${READ_SLACK_MS} ms. Jobs: ${f(s.bulkBytes / 1e6, 2)} MB payloads (the bulk stage's builders), POST to final state.`,
    "",
    ...head("read scenario, p50 ms (round trips)", [`at ${TARGET_RTT_MS} ms without the local stack`]),
    ...readRows,
    "",
    ...(perTrip.length > 0
      ? [
          `One trivial D1 round trip (\`store\` − \`http_floor\` − RTT) costs beyond the simulated RTT: ${perTrip.join(", ")} (the local D1 transport and the timer's overshoot; each read above pays it per round trip on top of its RTT, and the HTTP floor once). *Without the local stack* takes both off the p50 at ${TARGET_RTT_MS} ms (p50 − \`http_floor\` − round trips × that cost): what is left is the simulated RTT, the SQL and the Worker's own work, which is what the target's slack is for.`,
          "",
        ]
      : []),
    ...head("bulk job, wall time"),
    ...jobRows,
  ];
}
