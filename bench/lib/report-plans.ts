import type { PlansStage } from "./plans-stage.ts";

const TITLES: Record<string, string> = {
  pushed_stale: "demo seed + pushes, seed statistics kept",
  pushed_fresh: "the same catalog after `PRAGMA optimize`",
  grown_stale: "demo seed grown by pushes to 20,000 products, seed statistics kept",
  seeded_fresh: "seed at scale 50, statistics fresh",
};

/** The plans stage: bulk throughput on catalogs grown by pushes under the seed's statistics. */
export function plansSection(stage: PlansStage | undefined): string[] {
  if (!stage) return ["not measured (`--only plans`)"];
  const rows = stage.cases.flatMap((c) =>
    c.jobs.map(
      (j) =>
        `| ${TITLES[c.key] ?? c.key} | ${j.title} | ${c.catalogVariants.toLocaleString("en")} / ${c.statisticsVariants?.toLocaleString("en") ?? "none"} | ${j.status} | ${j.succeeded.toLocaleString("en")} | ${(j.wallMs / 1000).toFixed(2)} s | ${Math.round(j.recordsPerSecond).toLocaleString("en")} | ${(j.cpuMs / 1000).toFixed(2)} s (SQL ${(j.sqlCpuMs / 1000).toFixed(2)} s) | ${Math.round(j.recordsPerCpuSecond).toLocaleString("en")} | ${j.chunks} | ${j.chunkMedianMs.toFixed(0)} / ${j.chunkMaxMs.toFixed(0)} ms |`,
    ),
  );
  const optimize = stage.optimizeMs
    ? `Job-end \`PRAGMA optimize\` on the grown catalog: ${stage.optimizeMs.stale.toFixed(0)} ms with the seed's statistics (it analyzes the grown tables), ${stage.optimizeMs.fresh.toFixed(1)} ms once they are fresh (it only reads each table's size).`
    : "";
  return [
    `Run ${stage.run}; the statistics are put back to the seed's after each push job, as if nothing refreshed them.`,
    "",
    "| catalog | job | variants: rows / in statistics | status | records | wall | records/s | CPU | records per CPU s | chunk messages | chunk median / max (wall) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    "Wall times include other processes' turns on the shared machine (load average in the header); CPU is this process's own time, SQL the part inside node:sqlite. The last chunk message also finalizes the job (its `PRAGMA optimize`).",
    "",
    ...stage.cases.flatMap((c) =>
      c.replay
        ? [
            `Variant match replayed with the seed's statistics (${TITLES[c.key] ?? c.key}, ${c.replay.keys.toLocaleString("en")} keys, ${c.replay.rows.toLocaleString("en")} rows): ${c.replay.statedMs.toFixed(1)} ms as the service states it (\`CROSS JOIN\`), ${c.replay.plainJoinMs.toFixed(0)} ms as a plain \`JOIN\` (before).`,
            "",
          ]
        : [],
    ),
    optimize,
  ];
}
