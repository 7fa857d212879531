/**
 * Which host processes use a SQLite data directory: each host CLI leaves one empty file named by
 * its pid in `<data-dir>/running-hosts/` while it runs. `npm run restore` reads them and refuses to
 * replace the database under a live host. A file left by a killed host names a dead pid and is
 * ignored (liveness by `process.kill(pid, 0)`); one file per process, so several hosts may share
 * the directory.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RUNNING_HOSTS_DIR = 'running-hosts';

/** Records this process in `dataDir` until it exits (also on process.exit after a signal). */
export function markRunningHost(dataDir: string): void {
  const dir = join(dataDir, RUNNING_HOSTS_DIR);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, String(process.pid));
  writeFileSync(file, '');
  process.once('exit', () => rmSync(file, { force: true }));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** The pids of live processes that marked `dataDir` (none when the directory is missing). */
export function runningHosts(dataDir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(join(dataDir, RUNNING_HOSTS_DIR));
  } catch {
    return [];
  }
  return names
    .filter((name) => /^[1-9]\d*$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid && alive(pid));
}
