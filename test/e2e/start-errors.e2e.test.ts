/**
 * Start-up errors name the thing to fix: each exits with code 2 and ONE line on stderr naming the
 * option (and the path or port), in plain words; the JSON log line on stdout carries `config_invalid`.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, runHostCli, tempDataDir } from '../../harness/host-process.ts';

/** Exit code 2, exactly one stderr line, and that line. */
async function oneLineFailure(args: string[], env: Record<string, string> = {}): Promise<string> {
  const { code, stderr, output } = await runHostCli(args, env);
  expect(code).toBe(2);
  const lines = stderr.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  expect(output).toContain('"code":"config_invalid"');
  return lines[0]!;
}

describe('start-up errors', () => {
  it('an unusable --data-dir names the path and the option', async () => {
    const file = join(tempDataDir(), 'a-file');
    writeFileSync(file, '');
    const below = join(file, 'data');
    expect(await oneLineFailure(['--data-dir', below, '--port', '0'])).toBe(
      `error: cannot use ${below} as the data directory (--data-dir, DATA_DIR): a part of the path is a file, not a directory`,
    );
    expect(await oneLineFailure(['--port', '0'], { DATA_DIR: file })).toBe(`error: cannot use ${file} as the data directory (--data-dir, DATA_DIR): it is a file, not a directory`);
  });

  it('a port in use says so and names --port', async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      expect(await oneLineFailure(['--port', String(port), '--data-dir', tempDataDir()])).toBe(
        `error: port ${port} is already in use on 127.0.0.1: stop what holds it, or choose another port with --port (PORT)`,
      );
    } finally {
      holder.close();
    }
  });

  it('a metrics port in use names --metrics-port', async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      expect(await oneLineFailure(['--port', '0', '--metrics-port', String(port), '--data-dir', tempDataDir()])).toContain(
        `port ${port} is already in use on 127.0.0.1: stop what holds it, or choose another port with --metrics-port (METRICS_PORT)`,
      );
    } finally {
      holder.close();
    }
  });

  it('an unknown option, a missing value and a stray argument are each reported once, in plain words', async () => {
    expect(await oneLineFailure(['--colour', 'blue'])).toBe('error: unknown option --colour; run with --help to list the options');
    expect(await oneLineFailure(['--port'])).toBe('error: --port needs a value, as in --port 4000; run with --help to list the options');
    expect(await oneLineFailure(['hunter2'])).toBe('error: unexpected argument: every option is written --name value; run with --help to list the options');
  });

  it('a bad value names the option, its variable and what it takes, never the value', async () => {
    expect(await oneLineFailure(['--port', 'eighty'])).toBe('error: invalid value for --port (PORT) from --port: expected a port number 0-65535');
    const line = await oneLineFailure([], { TRANSPORT: 'carrier-pigeon' });
    expect(line).toContain('TRANSPORT');
    expect(line).not.toContain('carrier-pigeon');
  });

  it('an invalid application variable (read by the component at start) is named once on stderr', async () => {
    const line = await oneLineFailure(['--port', '0', '--data-dir', tempDataDir()], { AUTH_SESSION_IDLE_SECONDS: 'soon' });
    expect(line).toBe("error: invalid configuration: AUTH_SESSION_IDLE_SECONDS (the application's variables, checked at start: docs/configuration.md)");
  });

  it('a COUNTER_WRITES the component does not know is named once on stderr, not its value', async () => {
    const line = await oneLineFailure(['--port', '0', '--data-dir', tempDataDir()], { COUNTER_WRITES: 'admins-only' });
    expect(line).toBe("error: invalid configuration: COUNTER_WRITES (the application's variables, checked at start: docs/configuration.md)");
  });
});
