/**
 * Records a live tool's outcome per provider into tracker item A11 (docs/tracker/A11.json, or
 * TRACKER_A11_FILE), the results `npm run tracker:a11 -- done` decides from. Holds only the check,
 * provider, pass/fail, base URL, authorization-endpoint origin, time and tool.
 * OAUTH_RECORD_A11=false leaves the record untouched (dry runs).
 */
import type { ProviderId } from '../../../src/auth/oauth/provider-ids.ts';
import { DEFAULT_A11_FILE, recordA11Result, type A11Check } from '../tracker/a11-record.ts';
import type { ToolOutput } from './output.ts';

export interface A11Outcome {
  provider: ProviderId;
  passed: boolean;
  authorizationEndpoint?: string | undefined;
}

export function recordForA11(out: ToolOutput, env: Record<string, string>, check: A11Check, tool: string, baseUrl: string, outcomes: A11Outcome[]): void {
  if (env.OAUTH_RECORD_A11?.trim().toLowerCase() === 'false') {
    out.note('OAUTH_RECORD_A11=false: nothing recorded for tracker A11');
    return;
  }
  const file = env.TRACKER_A11_FILE?.trim() || DEFAULT_A11_FILE;
  const at = new Date().toISOString();
  for (const o of outcomes) {
    try {
      recordA11Result(
        { check, provider: o.provider, passed: o.passed, baseUrl, at, tool, ...(o.authorizationEndpoint ? { authorizationEndpoint: o.authorizationEndpoint } : {}) },
        file,
      );
      out.note(`tracker A11: recorded ${check} ${o.passed ? 'PASS' : 'FAIL'} for ${o.provider} (npm run tracker:a11 -- status)`);
    } catch (error) {
      out.fail(o.provider, `could not record the ${check} result for tracker A11 (${error instanceof Error ? error.name : 'error'})`);
    }
  }
}
