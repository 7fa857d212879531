/**
 * CPU time read from Linux's /proc, for benchmarks that must say whether a row was limited by the
 * machine's cores rather than by the design under test: per process (utime + stime of
 * /proc/<pid>/stat, every thread included; and its ended children's), per process name (every live process whose
 * /proc/<pid>/comm matches, e.g. the PostgreSQL backends), and the whole machine's busy share
 * (/proc/stat). Clock ticks are converted at USER_HZ = 100, Linux's fixed value for these files.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10;

/** CPU milliseconds `pid` has used (0 once it is gone). */
export function processCpuMs(pid: number): number {
  return processCpuTimes(pid).own;
}

/**
 * CPU milliseconds `pid` has used itself, and those its children used that have ended and been
 * waited for (cutime + cstime, fields 16 and 17): a child process run to completion, such as a
 * build tool, counts there. Zeros once it is gone.
 */
export function processCpuTimes(pid: number): { own: number; children: number } {
  try {
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime (fields 14 to 17)
    return { own: (Number(fields[11]) + Number(fields[12])) * TICK_MS, children: (Number(fields[13]) + Number(fields[14])) * TICK_MS };
  } catch {
    return { own: 0, children: 0 };
  }
}

/** CPU milliseconds per live process whose name is one of `names`, keyed by pid. */
export function namedProcessesCpuMs(names: readonly string[]): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      if (names.includes(readFileSync(`/proc/${pid}/comm`, 'utf8').trim())) found.set(pid, processCpuMs(pid));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** CPU milliseconds those processes used between two samples (a process new in `after` counts from 0). */
export function namedProcessesDeltaMs(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

export interface MachineSample {
  busyTicks: number;
  totalTicks: number;
}

/** The machine's busy and total ticks so far, over every core (/proc/stat, first line). */
export function machineSample(): MachineSample {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const values = ticks.map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0); // idle + iowait
  return { busyTicks: total - idle, totalTicks: total };
}

/** Share of all cores' time spent busy between two samples, 0..1. */
export function machineBusy(before: MachineSample, after: MachineSample): number {
  const total = after.totalTicks - before.totalTicks;
  return total <= 0 ? 0 : (after.busyTicks - before.busyTicks) / total;
}
