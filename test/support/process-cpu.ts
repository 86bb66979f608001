import { readdirSync, readFileSync } from 'fs';

/**
 * CPU times of a process from /proc/<pid>/stat (Linux; clock ticks of 10 ms), in ms: its own
 * (`cpu`: user + system) and its ended, waited-for children's (`children`). The fields follow the
 * parenthesised command name, which may hold spaces: utime, stime, cutime and cstime are the 12th
 * to 15th after it. Throws when the process is gone.
 */
export function processCpu(pid: number | 'self'): { name: string; cpu: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return {
    name: stat.slice(stat.indexOf('(') + 1, close),
    cpu: (Number(fields[11]) + Number(fields[12])) * 10,
    children: (Number(fields[13]) + Number(fields[14])) * 10,
  };
}

/** CPU time (user + system, ms) of a process so far. */
export function processCpuMs(pid: number | 'self'): number {
  return processCpu(pid).cpu;
}

/** CPU time (ms) of every running process named `name` (e.g. every PostgreSQL process of the host). */
export function cpuMsOfProcessesNamed(name: string): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const proc = processCpu(Number(pid));
      if (proc.name === name) total += proc.cpu;
    } catch {
      // Ended meanwhile.
    }
  }
  return total;
}
