/** Tracker item A11: `npm run tracker:a11 -- done` refuses without live evidence and says what is missing. */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../harness/host-process.ts';
import { A11_CHECKS, DEFAULT_A11_FILE, readA11, recordA11Result, type A11Result } from '../../scripts/oauth/tracker/a11-record.ts';

const PROVIDERS = ['provider_a', 'provider_b', 'provider_c'] as const;
let file: string;

function tracker(command: string) {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'oauth', 'tracker-a11.ts'), command], {
    env: { PATH: process.env.PATH ?? '', TRACKER_A11_FILE: file },
    encoding: 'utf8',
  });
  return { code: result.status, lines: `${result.stdout}${result.stderr}`.trim().split('\n') };
}

function liveResult(provider: (typeof PROVIDERS)[number], check: A11Result['check'], extra: Partial<A11Result> = {}): A11Result {
  return {
    provider,
    check,
    passed: true,
    baseUrl: 'https://auth.example.com',
    at: '2026-11-21T06:00:00.000Z',
    tool: `oauth:${check}`,
    ...(check === 'preflight' || check === 'browser' ? { authorizationEndpoint: 'https://accounts.provider.example' } : {}),
    ...extra,
  };
}

function recordAllExcept(skip: (p: string, c: string) => boolean = () => false) {
  for (const p of PROVIDERS) for (const c of A11_CHECKS) if (!skip(p, c)) recordA11Result(liveResult(p, c), file);
}

beforeEach(() => {
  file = join(mkdtempSync(join(tmpdir(), 'a11-')), 'A11.json');
  copyFileSync(DEFAULT_A11_FILE, file);
});

describe('tracker A11', () => {
  it('is committed as operator_pending with no recorded results (no live provider is reachable here)', () => {
    const record = readA11(DEFAULT_A11_FILE);
    expect(record.state).toBe('operator_pending');
    expect(record.results).toEqual([]);
  });

  it('refuses done without evidence, lists all twelve missing checks and leaves the record unchanged', () => {
    const before = readFileSync(file, 'utf8');
    const { code, lines } = tracker('done');
    expect(code).toBe(1);
    expect(lines[0]).toBe('REFUSED  A11 stays operator_pending: 12 required check(s) have no passing live result');
    for (const p of PROVIDERS) for (const c of A11_CHECKS) expect(lines.some((l) => l.includes(p) && l.includes(c) && l.includes('no recorded result'))).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('names exactly the one missing check', () => {
    recordAllExcept((p, c) => p === 'provider_c' && c === 'evidence');
    const { code, lines } = tracker('done');
    expect(code).toBe(1);
    expect(lines.slice(1).map((l) => l.replace(/\s+/g, ' '))).toEqual(['MISSING provider_c evidence no recorded result']);
  });

  it('does not count failed results, local base URLs or a loopback authorization endpoint', () => {
    recordAllExcept((p, c) => p === 'provider_a' && (c === 'preflight' || c === 'browser' || c === 'callback'));
    recordA11Result(liveResult('provider_a', 'preflight', { authorizationEndpoint: 'http://127.0.0.1:9000' }), file);
    recordA11Result(liveResult('provider_a', 'browser', { passed: false }), file);
    recordA11Result(liveResult('provider_a', 'callback', { baseUrl: 'http://localhost:3000' }), file);
    const { code, lines } = tracker('done');
    expect(code).toBe(1);
    const text = lines.join('\n');
    expect(text).toMatch(/provider_a\s+preflight\s+.*authorization endpoint must use https \(not a real provider app\)/);
    expect(text).toMatch(/provider_a\s+browser\s+the latest result \(2026-11-21T06:00:00.000Z\) failed/);
    expect(text).toMatch(/provider_a\s+callback\s+.*base URL must use https \(not a real deployment\)/);
    expect(readA11(file).state).toBe('operator_pending');
  });

  it('moves to done once all four checks passed live for all three providers, with the time in its history', () => {
    recordAllExcept();
    const { code, lines } = tracker('done');
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^A11 done/);
    const record = readA11(file);
    expect(record.state).toBe('done');
    expect(record.history.at(-1)?.state).toBe('done');
    expect(tracker('status').lines.slice(0, 2)).toEqual([`A11 done: ${record.title}`, '12 recorded result(s); 0 required check(s) still missing']);
  });
});
