/**
 * docs/configuration.md documents every option the code accepts: each host option of
 * host/config.ts (flag, variable and default in one table row), each `npm run serve:wasmtime`
 * option (from the launcher's own --help), and every AUTH_* variable the component reads.
 */
import { describe, expect, it } from 'vitest';
import { OPTIONS } from '../../host/config.ts';
import { helpText } from '../../scripts/wasmtime/options.ts';
import { readDoc, tableRows } from './markdown.ts';
import { authVariables, counterVariables } from './variables.ts';

const PAGE = 'docs/configuration.md';
const tables = tableRows(readDoc(PAGE));

/** The table whose first column holds this flag (`--db` picks the host's table, `--instance-reuse` the launcher's). */
function tableWith(flag: string): string[][] {
  const table = tables.find((rows) => rows.some(([first]) => first === `\`${flag}\``));
  if (table === undefined) throw new Error(`${PAGE} has no table with a row for ${flag}`);
  return table;
}

interface Option {
  flag: string;
  env: string;
  fallback: string;
}

function missingRows(table: string[][], options: Option[]): string[] {
  return options
    .filter(({ flag, env, fallback }) => !table.some(([f, e, d]) => f === `\`${flag}\`` && e === `\`${env}\`` && d?.includes(`\`${fallback}\``)))
    .map(({ flag, env, fallback }) => `| \`${flag}\` | \`${env}\` | \`${fallback}\` |`);
}

describe(PAGE, () => {
  it('has a row (flag, variable, default) for every host option of host/config.ts', () => {
    const options = Object.entries(OPTIONS).map(([name, spec]) => ({ flag: `--${name}`, env: spec.env, fallback: spec.default }));
    expect(options.length).toBeGreaterThan(15);
    expect(missingRows(tableWith('--db'), options)).toEqual([]);
  });

  it('has a row for every option of npm run serve:wasmtime (its --help)', () => {
    const options = helpText()
      .split('\n')
      .flatMap((line) => {
        const match = /^\s+(--[a-z-]+)\s+([A-Z_]+)\s.*; default (\S+)$/.exec(line);
        return match ? [{ flag: match[1] ?? '', env: match[2] ?? '', fallback: match[3] ?? '' }] : [];
      });
    expect(options.map(({ flag }) => flag)).toContain('--instance-reuse');
    expect(missingRows(tableWith('--instance-reuse'), options)).toEqual([]);
  });

  it('names every AUTH_* variable the component reads in a table row', () => {
    const { names, providerSuffixes: suffixes } = authVariables();
    // Provider variables are built as `${prefix}_SUFFIX`; the page writes them AUTH_PROVIDER_{A,B,C}_SUFFIX or …_SUFFIX.
    expect(names).toContain('AUTH_SESSION_TTL_SECONDS');
    expect(suffixes).toContain('_GENERATED_CLIENT_SECRET');
    const rows = tables.flat().map((cells) => cells.join(' | '));
    const missing = [...names, ...suffixes].filter((name) => !rows.some((row) => row.includes(name)));
    expect(missing).toEqual([]);
  });

  it('names every COUNTER_* variable the component reads in a table row', () => {
    const names = counterVariables();
    expect(names).toContain('COUNTER_WRITES');
    const rows = tables.flat().map((cells) => cells.join(' | '));
    expect(names.filter((name) => !rows.some((row) => row.includes(`\`${name}\``)))).toEqual([]);
  });
});
