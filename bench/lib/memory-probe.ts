import { GCProfiler } from "node:v8";

/**
 * Heap figures of the in-process bulk harness (bench/bulk-inprocess.ts, run with --expose-gc):
 * for each handler call (the accept's `fetch`, each `queue` message) the peak JS heap above the
 * heap left by a full GC right before it; for each job the heap retained after a full GC once it
 * has ended. The peak is the largest `usedHeapSize` V8 reported before any GC during the call
 * (GCProfiler) or right after it: the heap the call held at its fullest, not a sum of allocations.
 */
export interface JobMemory {
  /** Peak − baseline of the accept (`fetch` of the POST until its waitUntil work settled). */
  acceptPeakBytes: number;
  /** Max over this job's queue messages of peak − baseline. */
  messagePeakBytes: number;
  /** The same, median over the messages. */
  messagePeakMedianBytes: number;
  /** heapUsed after a full GC once the job is final (its payload dropped from the fake R2). */
  retainedBytes: number;
  /** ArrayBuffer memory at the same moment (outside the JS heap). */
  arrayBufferBytes: number;
  /** GCs V8 ran inside the measured calls. */
  gcs: number;
}

type Gc = () => void;

/** A no-op unless `enabled`: the harness calls it the same way in its timing runs. */
export function memoryProbe(enabled: boolean) {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (enabled && !gc) throw new Error("the memory probe needs node --expose-gc");
  const fullGc = () => {
    // Twice: the first pass can leave objects that were waiting for finalization.
    gc?.();
    gc?.();
    return process.memoryUsage().heapUsed;
  };
  let baseline = 0;
  let profiler: GCProfiler | null = null;
  let gcs = 0;
  let acceptPeak = 0;
  let messagePeaks: number[] = [];

  return {
    enabled,
    /** Right before a handler call: a full GC, the baseline, and GC profiling until `end`. */
    start() {
      if (!enabled) return;
      baseline = fullGc();
      profiler = new GCProfiler();
      profiler.start();
    },
    /** Right after the call (and its waitUntil work). */
    end(call: "accept" | "message") {
      if (!enabled || !profiler) return;
      let peak = process.memoryUsage().heapUsed;
      // stop() reports nothing when no GC ran.
      const stats = profiler.stop()?.statistics ?? [];
      profiler = null;
      gcs += stats.length;
      for (const s of stats) peak = Math.max(peak, s.beforeGC.heapStatistics.usedHeapSize);
      const above = Math.max(0, peak - baseline);
      if (call === "accept") acceptPeak = above;
      else messagePeaks.push(above);
    },
    /** The job's figures, once it is final and its payload dropped; resets for the next job. */
    jobEnd(): JobMemory | undefined {
      if (!enabled) return undefined;
      const retainedBytes = fullGc();
      const sorted = [...messagePeaks].sort((a, b) => a - b);
      const out = {
        acceptPeakBytes: acceptPeak,
        messagePeakBytes: sorted.at(-1) ?? 0,
        messagePeakMedianBytes: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0,
        retainedBytes,
        arrayBufferBytes: process.memoryUsage().arrayBuffers,
        gcs,
      };
      messagePeaks = [];
      acceptPeak = 0;
      gcs = 0;
      return out;
    },
  };
}
