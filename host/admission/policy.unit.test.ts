/**
 * The policy's table is what the server applies and what the docs tell: every defence names a
 * module that exists, each once, in the order of the checkpoints a request passes; and every
 * defence module of host/admission/ is in it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKPOINTS, DEFENCES } from './policy.ts';

const root = join(import.meta.dirname, '..', '..');

describe('admission policy', () => {
  it('lists each defence once, with a module that exists', () => {
    expect(new Set(DEFENCES.map((d) => d.name)).size).toBe(DEFENCES.length);
    for (const defence of DEFENCES) expect(existsSync(join(root, defence.module)), defence.module).toBe(true);
  });

  it('lists them in the order a request meets them', () => {
    const positions = DEFENCES.map((d) => CHECKPOINTS.indexOf(d.at));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(DEFENCES[0]!.at).toBe('connection');
    expect(DEFENCES.at(-1)!.at).toBe('response');
  });

  it('names every bound of host/admission/ (the files that only help one are named by it)', () => {
    // Helpers of a defence, not defences of their own: the refusal answer and its log, the debt
    // arithmetic of the rates, the budget arithmetic of the instance limit, V8's reclaim after
    // retired instances, the pre-read byte budget (named by the body pre-read), and this table.
    const helpers = new Set(['refusal.ts', 'refusal-log.ts', 'debt-bucket.ts', 'memory-budget.ts', 'reclaim.ts', 'preread-budget.ts', 'policy.ts']);
    const named = new Set(DEFENCES.map((d) => d.module));
    const modules = readdirSync(join(root, 'host', 'admission')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !helpers.has(f));
    for (const file of modules) expect(named, file).toContain(`host/admission/${file}`);
  });
});
