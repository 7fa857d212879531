/**
 * What every live tool does first and last: read the operator environment and the shared
 * parameters (a parameter problem prints FAIL lines and exits 2), set up the redacting output
 * with every secret the environment holds, and turn an unexpected error into a FAIL line.
 * Exit code: 0 every check passed, 1 a check failed, 2 a parameter is missing or wrong.
 */
import { operatorEnv } from '../operator-env.ts';
import { ToolOutput, secretsOfEnv } from './output.ts';
import { readLiveParams, type LiveParams, type ParamNeeds } from './params.ts';

export interface ToolContext {
  env: Record<string, string>;
  params: LiveParams;
  out: ToolOutput;
}

export async function runTool(name: string, needs: ParamNeeds, body: (context: ToolContext) => Promise<void>): Promise<void> {
  const env = operatorEnv();
  const secrets = secretsOfEnv(env);
  const read = readLiveParams(env, needs);
  const expectedEmail = 'params' in read ? read.params.expectedEmail : undefined;
  const out = new ToolOutput({ secrets, expectedEmail });
  if ('problems' in read) {
    for (const problem of read.problems) out.fail('parameters', problem);
    process.exitCode = 2;
    return;
  }
  out.addSecret(read.params.session?.id);
  try {
    await body({ env, params: read.params, out });
  } catch (error) {
    out.fail('shared', `${name} stopped on an unexpected error: ${error instanceof Error ? `${error.name}: ${error.message}` : 'unknown'}`);
  }
  const code = out.finish(name);
  // A parameter found wrong inside a tool (a browser option, say) is a usage error too.
  process.exitCode = out.checks.some((c) => c.scope === 'parameters' && c.outcome === 'FAIL') ? 2 : code;
}
