/** This process's CPU time so far (user + system), in ms: a harness's cost, unlike wall time, does not grow when other processes take the core. */
export function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
