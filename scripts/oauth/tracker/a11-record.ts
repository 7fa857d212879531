/**
 * Tracker item A11 (the live verification of the three OAuth providers): the committed record docs/tracker/A11.json, the check results the
 * live tools record into it, and the rule that moves it from `operator_pending` to `done`: a
 * passing preflight, browser, callback and evidence result for each of the three providers,
 * recorded against a real deployment (https base URL on a real host) and, for preflight and
 * browser, a real external authorization endpoint. Results hold no secrets: check, provider,
 * pass/fail, base URL, authorization endpoint origin, time, tool.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { PROVIDER_IDS, type ProviderId } from '../../../src/auth/oauth/provider-ids.ts';
import { liveUrlProblem } from '../readiness-checks.ts';

export const A11_CHECKS = ['preflight', 'browser', 'callback', 'evidence'] as const;
export type A11Check = (typeof A11_CHECKS)[number];

export const DEFAULT_A11_FILE = join(import.meta.dirname, '..', '..', '..', 'docs', 'tracker', 'A11.json');

const resultSchema = v.object({
  check: v.picklist(A11_CHECKS),
  provider: v.picklist(PROVIDER_IDS),
  passed: v.boolean(),
  /** BASE_URL the tool ran against */
  baseUrl: v.string(),
  /** origin of the provider authorization endpoint the login went to (preflight, browser) */
  authorizationEndpoint: v.optional(v.string()),
  /** ISO 8601 time of the run */
  at: v.pipe(v.string(), v.isoTimestamp()),
  tool: v.string(),
});

const recordSchema = v.object({
  id: v.literal('A11'),
  title: v.string(),
  state: v.picklist(['operator_pending', 'done']),
  required: v.object({ providers: v.array(v.picklist(PROVIDER_IDS)), checks: v.array(v.picklist(A11_CHECKS)) }),
  results: v.array(resultSchema),
  history: v.array(v.object({ state: v.string(), at: v.string(), note: v.string() })),
});

export type A11Result = v.InferOutput<typeof resultSchema>;
export type A11Record = v.InferOutput<typeof recordSchema>;

export function readA11(file = DEFAULT_A11_FILE): A11Record {
  return v.parse(recordSchema, JSON.parse(readFileSync(file, 'utf8')));
}

export function writeA11(record: A11Record, file = DEFAULT_A11_FILE): void {
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
}

/** Appends one check result (what the live tools call after they run). */
export function recordA11Result(result: A11Result, file = DEFAULT_A11_FILE): void {
  const record = readA11(file);
  record.results.push(v.parse(resultSchema, result));
  writeA11(record, file);
}

/** Why a result does not count as live evidence, or undefined when it does. */
function notLive(result: A11Result): string | undefined {
  const base = liveUrlProblem(result.baseUrl);
  if (base) return `its base URL ${base} (not a real deployment)`;
  if (result.check === 'preflight' || result.check === 'browser') {
    if (!result.authorizationEndpoint) return 'it names no provider authorization endpoint';
    const endpoint = liveUrlProblem(result.authorizationEndpoint);
    if (endpoint) return `its authorization endpoint ${endpoint} (not a real provider app)`;
  }
  return undefined;
}

export interface Gap {
  provider: ProviderId;
  check: A11Check;
  why: string;
}

/** Every required (provider, check) pair without a passing live result, with the reason. */
export function missingEvidence(record: A11Record): Gap[] {
  const gaps: Gap[] = [];
  for (const provider of record.required.providers) {
    for (const check of record.required.checks) {
      const results = record.results.filter((r) => r.provider === provider && r.check === check);
      if (results.some((r) => r.passed && !notLive(r))) continue;
      const latest = results.at(-1);
      const why = !latest
        ? 'no recorded result'
        : !latest.passed
          ? `the latest result (${latest.at}) failed`
          : `the latest passing result (${latest.at}) does not count: ${notLive(latest)}`;
      gaps.push({ provider, check, why });
    }
  }
  return gaps;
}

/** Moves A11 to `done` when nothing is missing; otherwise leaves it and returns the gaps. */
export function markA11Done(file = DEFAULT_A11_FILE, now = new Date()): { done: boolean; gaps: Gap[] } {
  const record = readA11(file);
  const gaps = missingEvidence(record);
  if (gaps.length > 0) return { done: false, gaps };
  if (record.state !== 'done') {
    record.state = 'done';
    record.history.push({ state: 'done', at: now.toISOString(), note: 'all four checks passed for all three providers against real provider apps' });
    writeA11(record, file);
  }
  return { done: true, gaps };
}
