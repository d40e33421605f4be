const started = performance.now();

/** Progress on stderr, so stdout carries only the results table. */
export function log(message: string) {
  const s = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${s}s] ${message}\n`);
}
