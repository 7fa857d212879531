/**
 * Files holding secrets are the service user's alone, checked by stat of the real files: the host
 * CLI creates its data directory 0700 and SQLite's database, -wal and -shm files 0600; `npm run
 * backup` writes its copy (every password hash, address and the device-cookie key) 0600, `npm run
 * restore` the restored database 0600; a data directory that already exists wider is served, with
 * a `data_dir_not_private` warning naming it. Under `npm run serve:wasmtime` every file and
 * directory of the file store is private, and so is what `npm run mail:drain` adds to it. The
 * processes start with the common umask 022, so only their own umask makes their files private.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, startHost, tempDataDir, type HostProcess } from '../../harness/host-process.ts';
import { requireTool } from '../../harness/tools.ts';
import { prepareWasmtimeComponent } from '../../harness/wasmtime-process.ts';
import { register } from '../auth/support.ts';
import { filesUnder } from '../support/raw-store.ts';

const wasmtime = requireTool('wasmtime');

// What a login shell usually gives: group and others may read what is created.
process.umask(0o022);

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

function runScript(name: 'backup' | 'restore' | 'mail-drain', args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', `${name}.ts`), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('files with secrets are private', () => {
  const hosts: HostProcess[] = [];
  afterAll(async () => {
    for (const host of hosts) await host.stop();
  });

  it('the host makes its data directory 0700 and the store files 0600; backup and restore write 0600', { timeout: 120_000 }, async () => {
    // A world-readable parent, as /srv or a home directory may be: the data directory is made inside.
    const parent = mkdtempSync(join(tmpdir(), 'private-files-'));
    chmodSync(parent, 0o755);
    const dataDir = join(parent, 'data');
    const host = await startHost({ dataDir });
    hosts.push(host);
    await register(host.url);
    expect(modeOf(dataDir)).toBe('700');
    for (const file of ['app.sqlite', 'app.sqlite-wal', 'app.sqlite-shm']) expect(modeOf(join(dataDir, file)), file).toBe('600');
    expect(modeOf(join(dataDir, 'running-hosts'))).toBe('700');
    expect(host.logs().some((l) => l['code'] === 'data_dir_not_private')).toBe(false);

    const backup = join(parent, 'backup.sqlite');
    const made = await runScript('backup', ['--data-dir', dataDir, '--to', backup]);
    expect(made.code, made.output).toBe(0);
    expect(modeOf(backup)).toBe('600');
    await host.stop();

    // A backup copied around with a wider mode is restored private all the same.
    chmodSync(backup, 0o644);
    const restoredDir = join(parent, 'restored');
    const restored = await runScript('restore', ['--data-dir', restoredDir, '--from', backup]);
    expect(restored.code, restored.output).toBe(0);
    expect(modeOf(restoredDir)).toBe('700');
    expect(modeOf(join(restoredDir, 'app.sqlite'))).toBe('600');
  });

  it('a data directory others can read is served, with a warning at start that names it', { timeout: 60_000 }, async () => {
    const dataDir = tempDataDir();
    chmodSync(dataDir, 0o755);
    const host = await startHost({ dataDir });
    hosts.push(host);
    const warning = host.logs().find((l) => l['code'] === 'data_dir_not_private');
    expect(warning?.['level']).toBe('warn');
    expect(warning?.['paths']).toEqual([`${dataDir} 0755`]);
    expect((await fetch(`${host.url}/api/counter/view`)).status).toBe(200);
    // The files the host made there are private all the same.
    await register(host.url);
    expect(modeOf(join(dataDir, 'app.sqlite'))).toBe('600');
  });

  it.skipIf(wasmtime === undefined)('under serve:wasmtime every file of the store is private, and what mail:drain adds to it', { timeout: 600_000 }, async () => {
    prepareWasmtimeComponent(wasmtime!.path);
    const parent = mkdtempSync(join(tmpdir(), 'private-wasmtime-'));
    const dataDir = join(parent, 'data');
    const port = await freePort();
    const launcher = spawn(process.execPath, [join(ROOT, 'scripts', 'serve-wasmtime.ts'), '--port', String(port), '--data-dir', dataDir], {
      cwd: ROOT,
      env: { ...process.env, WASMTIME: wasmtime!.path, AUTH_PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    launcher.stdout.on('data', (chunk) => (output += chunk));
    launcher.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => launcher.once('exit', resolve));
    try {
      await expect.poll(() => output.includes('"code":"wasmtime_listening"'), { timeout: 120_000 }).toBe(true);
      // A registration writes events, documents, key-value entries and a queued mail.
      await register(`http://127.0.0.1:${port}`);
      const drained = await runScript('mail-drain', ['--once', '--data-dir', dataDir]);
      expect(drained.code, drained.output).toBe(0);
      const wide = (dir: string, under = ''): string[] =>
        filesUnder(dir, under).flatMap((path) => {
          const mode = statSync(join(dir, path)).mode & 0o777;
          return mode === 0o600 ? [] : [`${path} ${mode.toString(8)}`];
        });
      expect(modeOf(dataDir)).toBe('700');
      expect(filesUnder(dataDir).length).toBeGreaterThan(5);
      expect(wide(dataDir)).toEqual([]);
      const dirs = ['events', 'projections', 'kv'].map((name) => `${name} ${modeOf(join(dataDir, name))}`);
      expect(dirs).toEqual(['events 700', 'projections 700', 'kv 700']);
      expect(output).not.toContain('data_dir_not_private');
    } finally {
      launcher.kill('SIGTERM');
      await exited;
    }
  });
});
