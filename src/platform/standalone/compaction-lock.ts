/**
 * One compaction of a log at a time (a maintenance pass and the upkeep after an account deletion
 * may overlap): a lock file created exclusively, skipped when held, broken when its holder has
 * held it longer than a compaction could take (a killed instance).
 */
import { tempPath, type FileSystem } from './file-system.ts';
import { decodeText, encodeText } from './names.ts';

const STALE_MS = 60_000;

/** Runs `work` under the lock at `path`, or answers `skipped` when another compaction holds it. */
export function whileCompacting(fs: FileSystem, path: string, now: () => number, work: () => number, skipped = 0): number {
  if (!fs.publish(path, encodeText(String(now())))) {
    const heldSince = fs.read(path);
    if (!heldSince || now() - Number(decodeText(heldSince)) <= STALE_MS) return skipped;
    // Rename it away so only one breaker wins.
    const moved = tempPath();
    if (!fs.rename(path, moved)) return skipped;
    fs.remove(moved);
    if (!fs.publish(path, encodeText(String(now())))) return skipped;
  }
  try {
    return work();
  } finally {
    fs.remove(path);
  }
}
