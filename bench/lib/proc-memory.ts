/**
 * Memory of other processes for the benchmarks that watch it (`npm run bench -- soak`, `npm run bench -- scale-soak`,
 * `npm run bench -- realtime`, `npm run bench -- overload`): the resident set read from Linux's /proc.
 */
import { readFileSync } from 'node:fs';

/** Resident set of process `pid` in bytes, every thread included (NaN once it is gone). */
export function residentBytes(pid: number): number {
  try {
    const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The same in MiB. */
export const residentMiB = (pid: number): number => residentBytes(pid) / 1_048_576;
