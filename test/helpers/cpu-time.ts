/**
 * The CPU time this process has used so far, in ms (user + system, all its threads). Timing tests compare
 * it rather than the clock: other test files running beside them on a busy machine slow the clock
 * readings of a computation, not the CPU time it takes.
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
