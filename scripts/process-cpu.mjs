// What the bench scripts read of another process's CPU time: Linux's /proc/PID/stat.
import { readdirSync, readFileSync } from 'node:fs';

// USER_HZ: /proc counts CPU time in clock ticks of 10 ms
const TICK_MS = 10;

/** Process `pid`'s name, parent and CPU milliseconds from /proc/PID/stat; undefined when unreadable. */
function readStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the name is in parentheses and may hold spaces: the fields start after the last ')'
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    // ppid is field 4, utime and stime fields 14 and 15 of the whole line
    return {
      name: stat.slice(stat.indexOf('(') + 1, close),
      parent: Number(fields[1]),
      cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
    };
  } catch {
    return undefined;
  }
}

/**
 * The command name of process `pid` and the CPU milliseconds (user + system) it has used so far;
 * undefined when it cannot be read (the process ended, or this is not Linux).
 */
export function processCpu(pid) {
  const stat = readStat(pid);
  return stat === undefined ? undefined : { name: stat.name, cpuMs: stat.cpuMs };
}

/**
 * The CPU milliseconds process `pid` and every process under it (the processes of `serve --processes
 * N`) have used so far, read from /proc; undefined when `pid` cannot be read.
 */
export function processTreeCpu(pid) {
  const own = readStat(pid);
  if (own === undefined) return undefined;
  let names = [];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return own.cpuMs;
  }
  const children = new Map();
  for (const name of names) {
    const stat = readStat(name);
    if (stat === undefined) continue; // ended meanwhile
    if (!children.has(stat.parent)) children.set(stat.parent, []);
    children.get(stat.parent).push({ pid: Number(name), cpuMs: stat.cpuMs });
  }
  let total = own.cpuMs;
  const queue = [Number(pid)];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()) ?? []) {
      total += child.cpuMs;
      queue.push(child.pid);
    }
  }
  return total;
}
