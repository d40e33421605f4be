import { Presets, SingleBar } from "cli-progress";

/**
 * Progress of the whole file, fed by the jobs' summaries: a bar on a terminal, otherwise a plain
 * line at most every `plainEveryMs`. Written to stderr, so stdout keeps only the summary table.
 */
export class PushProgress {
  private readonly bar: SingleBar | undefined;
  private readonly startedAt = Date.now();
  private lastLine = 0;
  private readonly total: number;
  private readonly plainEveryMs: number;

  constructor(total: number, plainEveryMs = 2000) {
    this.total = total;
    this.plainEveryMs = plainEveryMs;
    if (process.stderr.isTTY) {
      this.bar = new SingleBar(
        {
          format: "{bar} {value}/{total} records | {rate}/s | ETA {eta_formatted} | failed {failed}",
          stream: process.stderr,
          etaBuffer: 50,
          hideCursor: true,
        },
        Presets.shades_classic,
      );
      this.bar.start(total, 0, { rate: 0, failed: 0 });
    }
  }

  update(processed: number, failed: number) {
    const seconds = (Date.now() - this.startedAt) / 1000;
    const rate = seconds > 0 ? Math.round(processed / seconds) : 0;
    if (this.bar) {
      this.bar.update(processed, { rate, failed });
      return;
    }
    if (Date.now() - this.lastLine < this.plainEveryMs && processed < this.total) return;
    this.lastLine = Date.now();
    const eta = rate > 0 ? `${Math.ceil((this.total - processed) / rate)} s` : "?";
    process.stderr.write(
      `progress: ${processed}/${this.total} records, ${rate}/s, ETA ${eta}, failed ${failed}\n`,
    );
  }

  /** A message that must not be drawn over by the bar. */
  note(message: string) {
    if (this.bar) this.bar.stop();
    process.stderr.write(`${message}\n`);
    if (this.bar) this.bar.start(this.total, this.bar.getProgress() * this.total);
  }

  stop() {
    this.bar?.stop();
  }
}

/** Rows as an aligned text table, the first row the header. */
export function formatTable(rows: (string | number)[][]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, String(cell).length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => String(cell).padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
