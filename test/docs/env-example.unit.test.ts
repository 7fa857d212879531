/**
 * `.env.example` (copied to `.env` for local runs) names every variable there is to set: each
 * AUTH_* and COUNTER_* variable the component reads, each provider variable for every provider that has it,
 * and each host option's variable.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTIONS } from '../../host/config.ts';
import { ROOT } from './markdown.ts';
import { authVariables, counterVariables } from './variables.ts';

const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
/** Set or shown commented out: `NAME=` at the start of a line, after an optional `# `. */
const named = (name: string) => new RegExp(`^(# )?${name}=`, 'm').test(example);

describe('.env.example', () => {
  it('names every AUTH_* variable the component reads', () => {
    const { names } = authVariables();
    expect(names).toContain('AUTH_SESSION_IDLE_SECONDS');
    // The former HS256 secret is read only to refuse it: the file says so in a comment.
    expect(names.filter((name) => name !== 'AUTH_SYSTEM_TOKEN_SECRET' && !named(name))).toEqual([]);
  });

  it('names every COUNTER_* variable the component reads', () => {
    expect(counterVariables()).toContain('COUNTER_WRITES');
    expect(counterVariables().filter((name) => !named(name))).toEqual([]);
  });

  it('names each provider variable for at least one provider, and the label for every provider', () => {
    const { providerSuffixes } = authVariables();
    expect(providerSuffixes).toContain('_LABEL');
    expect(providerSuffixes.filter((suffix) => !['A', 'B', 'C'].some((p) => named(`AUTH_PROVIDER_${p}${suffix}`)))).toEqual([]);
    expect(['A', 'B', 'C'].filter((p) => !named(`AUTH_PROVIDER_${p}_LABEL`))).toEqual([]);
  });

  it("names every host option's variable", () => {
    expect(
      Object.values(OPTIONS)
        .filter((spec) => !named(spec.env))
        .map((spec) => spec.env),
    ).toEqual([]);
  });
});
