/**
 * `--help`: the command as it was run, every option with its variable and default, the
 * application's own variables (src/contract/app-variables.ts), and what the options and variables
 * it was run with would turn on (host/startup-summary.ts), in aligned columns.
 */
import { APP_VARIABLES } from '../src/contract/app-variables.ts';
import { loadConfig, OPTIONS, type OptionSpec } from './config.ts';
import { startupSummary, summaryLines } from './startup-summary.ts';
import type { StartupFeature } from '../src/contract/startup-probe.ts';

/**
 * How a command was started, for `Usage:` lines: the release's launcher names itself in
 * WASI_COUNTER_AUTH_COMMAND (bin/wasi-counter-auth), npm names its script, else `node <file>`.
 */
export function commandName(env: NodeJS.ProcessEnv, file = 'host/main.ts'): string {
  const launcher = env['WASI_COUNTER_AUTH_COMMAND'];
  if (launcher) return launcher;
  const script = env['npm_lifecycle_event'];
  if (script === 'start') return 'npm start --';
  if (script) return `npm run ${script} --`;
  return `node ${file}`;
}

/** Rows of cells as lines, each column as wide as its widest cell; the last column runs on. */
export function alignedRows(rows: readonly (readonly string[])[], indent = '  '): string[] {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => `${indent}${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ')}`.trimEnd());
}

/** Every host option: flag, variable, default, meaning. */
export function optionLines(): string[] {
  const rows = Object.entries(OPTIONS).map(([name, spec]: [string, OptionSpec]) => {
    const allowed = spec.allowed ? ` (${spec.allowed.join('|')})` : '';
    return [`--${name}`, spec.env, spec.default, `${spec.help}${allowed}`];
  });
  return alignedRows([['flag', 'variable', 'default', 'meaning'], ...rows]);
}

/** The application's variables, which only the environment sets. */
export function appVariableLines(): string[] {
  return alignedRows([['variable', 'default', 'meaning'], ...APP_VARIABLES.map((v) => [v.name, v.default, v.help])]);
}

/** `summary`: what these options would turn on, or the reason they cannot start. */
export function helpText(command: string, summary: readonly StartupFeature[] | string): string {
  return [
    `Usage: ${command} [options]`,
    '',
    'Serves the counter and auth service. A flag (--port 4000) wins over its variable (PORT=4000),',
    'which wins over a .env file in the working directory, which wins over the default.',
    'Every row in full: docs/configuration.md.',
    '',
    'Options:',
    ...optionLines(),
    '',
    "The application's variables (environment or .env only):",
    ...appVariableLines(),
    '',
    'With these options and variables:',
    ...(typeof summary === 'string' ? [`  cannot start: ${summary}`] : summaryLines(summary)),
  ].join('\n');
}

/** `--help` for a command run with `argv` (which holds `--help` or `-h`): what those options would turn on, or why they cannot start. */
export function helpForArguments(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  let summary: StartupFeature[] | string;
  try {
    summary = startupSummary(
      loadConfig(
        argv.filter((arg) => arg !== '--help' && arg !== '-h'),
        env,
      ),
      env,
      undefined,
    );
  } catch (error) {
    summary = error instanceof Error ? error.message : String(error);
  }
  return helpText(commandName(env), summary);
}
