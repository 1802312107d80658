// What the bench scripts read of another process's CPU time: Linux's /proc/PID/stat.
import { readFileSync } from 'node:fs';

// USER_HZ: /proc counts CPU time in clock ticks of 10 ms
const TICK_MS = 10;

/**
 * The command name of process `pid` and the CPU milliseconds (user + system) it has used so far;
 * undefined when it cannot be read (the process ended, or this is not Linux).
 */
export function processCpu(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the name is in parentheses and may hold spaces: the fields start after the last ')'
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    // utime and stime, fields 14 and 15 of the whole line
    return {
      name: stat.slice(stat.indexOf('(') + 1, close),
      cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
    };
  } catch {
    return undefined;
  }
}
