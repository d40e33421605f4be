import { cpuStage } from "./read-stage.ts";
import type { CpuScenario, CpuStage, Results } from "./results.ts";

const f = (n: number | null | undefined, digits = 2) =>
  n === null || n === undefined || !Number.isFinite(n) ? "–" : n.toFixed(digits);
const int = (n: number | null | undefined) =>
  n === null || n === undefined || !Number.isFinite(n) ? "–" : Math.round(n).toLocaleString("en-US");

/** Worker CPU per request, ms; any other read scenario gets the default. */
const CPU_TARGETS: Record<string, number> = { products_page: 8, orders_page: 2.5, price_list_prices: 2 };
const DEFAULT_CPU_TARGET = 1.5;

/** The phases shown as columns (src/lib/phase-clock.ts); the rest is what the headline leaves. */
const COLUMNS: [phase: string, title: string][] = [
  ["validate", "validation"],
  ["query-build", "query build"],
  ["map", "SQL result mapping"],
  ["render", "rendering"],
  ["json", "JSON"],
  ["etag", "ETag"],
];

/** The in-process CPU time per request when measured (robust to load), else the wall time. */
const inProcessOf = (s: CpuScenario) => s.inProcessCpuMs ?? s.inProcessMs;

const cpuOf = (s: CpuScenario) => {
  const inProcess = inProcessOf(s);
  return inProcess !== null && s.sqlFloorMs !== null ? inProcess - s.sqlFloorMs : null;
};

const targetOf = (s: CpuScenario) => (s.kind === "read" ? (CPU_TARGETS[s.key] ?? DEFAULT_CPU_TARGET) : null);

/** In-process time inside D1 calls beyond the SQL floor: the shim, the row objects, GC it triggers. */
const d1AboveFloor = (s: CpuScenario) => {
  const wait = s.phases["d1-wait"];
  return wait === undefined || wait === null || s.sqlFloorMs === null ? null : wait - s.sqlFloorMs;
};

/** Worker CPU as workerd spends it: the time outside D1 calls plus decoding D1's answers. */
const workerdCpuOf = (s: CpuScenario, outside: number | null | undefined) =>
  outside === null ||
  outside === undefined ||
  s.d1DecodeWorkerdMs === null ||
  s.d1DecodeWorkerdMs === undefined
    ? null
    : outside + s.d1DecodeWorkerdMs;

const mark = (ms: number | null, target: number | null) =>
  target === null || ms === null ? "" : ms <= target ? " ✅" : " ❌";

function row(s: CpuScenario, inWorkerd: number | null | undefined): string {
  const cpu = cpuOf(s);
  const target = targetOf(s);
  const named = COLUMNS.map(([phase]) => s.phases[phase] ?? null);
  const workerdCpu = workerdCpuOf(s, inWorkerd);
  const d1 = d1AboveFloor(s);
  const shown = named.reduce<number>((a, b) => a + (b ?? 0), d1 ?? 0);
  const rest = cpu !== null && Object.keys(s.phases).length > 0 ? cpu - shown : null;
  const cells = [
    s.key,
    `**${f(cpu)}**`,
    target === null ? "–" : `${f(target, 1)} ${cpu !== null && cpu <= target ? "✅" : "❌"}`,
    ...named.map((ms) => f(ms, 3)),
    f(d1, 3),
    f(rest, 3),
    f(inWorkerd),
    f(s.d1DecodeWorkerdMs),
    `**${f(workerdCpu)}**${mark(workerdCpu, target)}`,
    `${(s.bytes / 1024).toFixed(1)} KiB`,
    int(s.sqlRows),
    String(s.roundTrips),
    String(s.statements ?? "–"),
    f(s.sqlFloorMs, 3),
    f(s.inProcessCpuMs),
    f(s.inProcessMs),
  ];
  return `| ${cells.join(" | ")} |`;
}

/** The run's CPU stage; a run from before it existed has the same numbers, without phases, in its reads. */
function cpuOfRun(r: Results): CpuStage | undefined {
  if (r.cpu) return r.cpu;
  const measured = r.reads.flatMap((read) => (read.capture ? [{ ...read, capture: read.capture }] : []));
  return measured.length > 0 ? cpuStage(measured, Number(r.options.sqlFloorBudgetMs ?? 0)) : undefined;
}

/** A scenario's time outside D1 calls in `wrangler dev` at concurrency 1, when the reads ran. */
const workerdOutsideD1 = (r: Results, key: string) =>
  r.reads.find((read) => read.scenario.key === key)?.loads.find((l) => l.connections === 1)?.outsideD1Ms;

/** The headline of the reads: Worker CPU per request and where it goes. */
export function cpuSection(r: Results): string[] {
  const cpu = cpuOfRun(r);
  if (!cpu || cpu.scenarios.length === 0) return ["Worker CPU per request: not measured."];
  return [
    `**Worker CPU per request** (ms; ${cpu.run ? `measured by ${cpu.run}` : "measured with the reads"}): the served bundle's \`fetch\` called in Node over node:sqlite, each scenario repeated for ${int(cpu.budgetMs)} ms; *Worker CPU* = in-process CPU time − SQL floor (the service's own JavaScript; the process's CPU time per request, median, which unlike wall time does not grow when other processes take the core; wall time where a run did not record it). The phases are the medians of what each response reported in \`Server-Timing\` (src/lib/phase-clock.ts: each moment of a request belongs to one phase); *D1 call above floor* = the in-process time inside D1 calls − the SQL floor: the binding, building the row objects and the GC the request's allocations trigger there; *rest* = Worker CPU − the columns before it: routing, middleware, auth, the log line. The phases and the SQL floor are wall-clock medians: on a loaded machine (see the load average above) they stretch where the CPU time does not, and the rest can come out negative. A deployed Worker's clock advances only at I/O, so these phase entries mean something in Node and \`wrangler dev\` only.`,
    "",
    "",
    "*workerd outside D1* is the same request served by `wrangler dev` (workerd, the V8 a deployed Worker runs), the concurrency-1 latency run: the mean over its responses of the `Server-Timing` phases but `d1-wait` (workerd's clock moves in whole milliseconds, so a mean of many, not a median; the slowest 1 % left out, as a request descheduled on the shared machine reads tens of ms). *workerd D1 decode* is what the D1 binding spends on the request's answers inside the D1 call, before the Worker's `await` resumes (reading the answer as text, `JSON.parse`, one object per row with `Object.fromEntries`): measured in workerd by a probe Worker decoding the same answers, built from the captured statements on this database (bench/lib/d1-decode.ts). *workerd Worker CPU* = the two summed: the Worker CPU a deployment is billed, judged against the same target.",
    "",
    `| scenario | Worker CPU ms | target ms | ${COLUMNS.map(([, title]) => title).join(" | ")} | D1 call above floor | rest | workerd outside D1 ms | workerd D1 decode ms | workerd Worker CPU ms | response | SQL rows | D1 round trips (captured) | SQL stmts | SQL floor ms | in-process CPU ms | in-process wall ms |`,
    `| --- | ---: | --- | ${COLUMNS.map(() => "---:").join(" | ")} | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
    ...cpu.scenarios.map((s) => row(s, workerdOutsideD1(r, s.key))),
  ];
}

/** Targets section: each read scenario's Worker CPU against its target. */
export function cpuTargets(r: Results): string[] {
  const reads = (cpuOfRun(r)?.scenarios ?? []).filter((s) => s.kind === "read");
  if (reads.length === 0) return [];
  const misses = reads.filter((s) => {
    const cpu = cpuOf(s);
    return cpu === null || cpu > (targetOf(s) ?? Number.POSITIVE_INFINITY);
  });
  const inWorkerd = reads.map((s) => ({ s, ms: workerdCpuOf(s, workerdOutsideD1(r, s.key)) }));
  const workerdMisses = inWorkerd.filter(
    ({ s, ms }) => ms !== null && ms > (targetOf(s) ?? Number.POSITIVE_INFINITY),
  );
  return [
    `- Worker CPU per request (products_page ≤ 8 ms, orders_page ≤ 2.5, price_list_prices ≤ 2, every other read ≤ ${DEFAULT_CPU_TARGET}), in Node: ${reads
      .map((s) => `${s.key} ${f(cpuOf(s))}`)
      .join(", ")} ${misses.length === 0 ? "✅" : `❌ (${misses.map((s) => s.key).join(", ")} over)`}`,
    ...(inWorkerd.some(({ ms }) => ms !== null)
      ? [
          `- The same in workerd (outside D1 + D1 decode): ${inWorkerd
            .map(({ s, ms }) => `${s.key} ${f(ms)}`)
            .join(
              ", ",
            )} ${workerdMisses.length === 0 ? "✅" : `❌ (${workerdMisses.map(({ s }) => s.key).join(", ")} over)`}`,
        ]
      : []),
  ];
}
