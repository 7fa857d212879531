/** `--help`: named after the command it was run as, every option and application variable, aligned; what the options turn on. */
import { describe, expect, it } from 'vitest';
import { APP_VARIABLES } from '../src/contract/app-variables.ts';
import { loadConfig, OPTIONS } from './config.ts';
import { commandName, helpText } from './help.ts';
import { startupSummary } from './startup-summary.ts';

describe('commandName()', () => {
  it('is the release launcher, the npm script, or node itself', () => {
    expect(commandName({ WASI_COUNTER_AUTH_COMMAND: 'wasi-counter-auth', npm_lifecycle_event: 'host' })).toBe('wasi-counter-auth');
    expect(commandName({ npm_lifecycle_event: 'start' })).toBe('npm start --');
    expect(commandName({ npm_lifecycle_event: 'host' })).toBe('npm run host --');
    expect(commandName({})).toBe('node host/main.ts');
  });
});

describe('helpText()', () => {
  const text = helpText('wasi-counter-auth', startupSummary(loadConfig([], {}), {}, undefined));
  const lines = text.split('\n');

  it('starts with the command it was run as', () => {
    expect(lines[0]).toBe('Usage: wasi-counter-auth [options]');
  });

  it('lists every option with its variable and default, in aligned columns', () => {
    const rows = Object.entries(OPTIONS).map(([name, spec]) => {
      const line = lines.find((l) => l.startsWith(`  --${name} `));
      expect(line, `--${name}`).toBeDefined();
      expect(line).toMatch(new RegExp(`^  --${name} +${spec.env} +${spec.default.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +\\S`));
      return line!;
    });
    const columnsOf = (line: string) => [line.indexOf(' ', 4), ...[...line.matchAll(/ {2,}(?=\S)/g)].slice(0, 3).map((m) => m.index! + m[0].length)];
    const starts = rows.map((line) => columnsOf(line).slice(1));
    expect(new Set(starts.map((s) => s.join(','))).size).toBe(1);
  });

  it('lists every application variable the component reads (AUTH_*, MAIL_*), each on its own line', () => {
    for (const variable of APP_VARIABLES) expect(lines.some((l) => l.startsWith(`  ${variable.name} `))).toBe(true);
    expect(text).toContain('AUTH_PUBLIC_BASE_URL');
    expect(text).toContain('MAIL_DEAD_LETTER_RETENTION_SECONDS');
  });

  it('ends with what these options would turn on, or why they cannot start', () => {
    expect(text).toMatch(/With these options and variables:\n {2}store +sqlite \S+app\.sqlite\n {2}realtime +local\n/);
    expect(helpText('x', 'no --postgres-url')).toMatch(/With these options and variables:\n {2}cannot start: no --postgres-url$/);
  });
});
