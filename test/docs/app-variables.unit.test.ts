/**
 * The application's variables listed for the hosts' `--help` (src/contract/app-variables.ts) are
 * exactly the ones the component reads: none missing, none that nothing reads.
 */
import { describe, expect, it } from 'vitest';
import { APP_VARIABLES, expandVariableName, PASSED_TO_GUEST } from '../../src/contract/app-variables.ts';
import { authVariables, counterVariables } from './variables.ts';

const listed = new Set(APP_VARIABLES.flatMap((variable) => expandVariableName(variable.name)));

describe('APP_VARIABLES', () => {
  it('names every AUTH_* variable the component reads, and every provider variable for some provider', () => {
    const { names, providerSuffixes } = authVariables();
    expect(names.filter((name) => !listed.has(name))).toEqual([]);
    expect(providerSuffixes.filter((suffix) => !['A', 'B', 'C'].some((p) => listed.has(`AUTH_PROVIDER_${p}${suffix}`)))).toEqual([]);
    expect(listed.has('MAIL_DEAD_LETTER_RETENTION_SECONDS')).toBe(true);
    expect(counterVariables().filter((name) => !listed.has(name))).toEqual([]);
  });

  it('names nothing the component does not read, and only what the hosts pass it', () => {
    const { names, providerSuffixes } = authVariables();
    const read = (name: string) =>
      names.includes(name) ||
      counterVariables().includes(name) ||
      name === 'MAIL_DEAD_LETTER_RETENTION_SECONDS' ||
      name === 'APP_NAME' ||
      providerSuffixes.some((suffix) => /^AUTH_PROVIDER_[ABC]_/.test(name) && name.endsWith(suffix));
    expect([...listed].filter((name) => !read(name))).toEqual([]);
    expect([...listed].filter((name) => !PASSED_TO_GUEST.some((pattern) => pattern.test(name)))).toEqual([]);
  });

  it('expands the provider shorthand', () => {
    expect(expandVariableName('AUTH_PROVIDER_{A,C}_ISSUER')).toEqual(['AUTH_PROVIDER_A_ISSUER', 'AUTH_PROVIDER_C_ISSUER']);
    expect(expandVariableName('AUTH_PROVIDER_C_{TEAM_ID,KEY_ID}')).toEqual(['AUTH_PROVIDER_C_TEAM_ID', 'AUTH_PROVIDER_C_KEY_ID']);
  });
});
