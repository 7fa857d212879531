/** The data directory check: made if missing, refused with the reason where it cannot be, at once. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDataDir } from '../harness/host-process.ts';
import { ConfigError } from './config.ts';
import { makeDataDirectory } from './start-errors.ts';

describe('makeDataDirectory()', () => {
  it('makes the missing levels', () => {
    const path = join(tempDataDir(), 'a', 'b', 'c');
    makeDataDirectory(path);
    expect(() => makeDataDirectory(path)).not.toThrow();
  });

  it('refuses a path under /proc at once, where a recursive mkdir never returns', () => {
    expect(() => makeDataDirectory('/proc/wasi-counter-auth/data')).toThrow(
      new ConfigError('cannot use /proc/wasi-counter-auth/data as the data directory (--data-dir, DATA_DIR): no directory can be created there'),
    );
  });

  it('refuses a file, naming the option it was given as', () => {
    const file = join(tempDataDir(), 'file');
    writeFileSync(file, '');
    expect(() => makeDataDirectory(file, '--data-dir')).toThrow(/--data-dir\): it is a file, not a directory$/);
  });
});
