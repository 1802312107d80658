// What the bench scripts read of another process's CPU time: Linux's /proc/PID/stat.
import { readdirSync, readFileSync } from 'node:fs';

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

/**
 * The CPU milliseconds process `pid` and every process under it (the processes of `serve --processes
 * N`) have used so far, read from /proc; undefined when `pid` cannot be read.
 */
export function processTreeCpu(pid) {
  const own = processCpu(pid);
  if (own === undefined) return undefined;
  const children = new Map();
  let entries = [];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return own.cpuMs;
  }
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  let total = 0;
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.pop();
    total += processCpu(next)?.cpuMs ?? 0;
    queue.push(...(children.get(next) ?? []));
  }
  return total;
}
