/**
 * Outside tools a suite needs (grpcurl, wasmtime, chromium, nginx, caddy, openssl, systemd-analyze). Locally a missing tool skips the
 * suite that needs it; under CI=true a missing tool is a failure, never a skip.
 *
 *   const grpcurl = requireTool('grpcurl');
 *   describe.skipIf(!grpcurl)('grpcurl', () => { ... run grpcurl.path ... });
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface Tool {
  name: string;
  path: string;
  version: string;
}

interface ToolSpec {
  /** Environment variable that may name the executable. */
  env: string;
  candidates: string[];
  versionArgs: string[];
}

const SPECS: Record<string, ToolSpec> = {
  grpcurl: { env: 'GRPCURL', candidates: ['grpcurl'], versionArgs: ['-version'] },
  wasmtime: { env: 'WASMTIME', candidates: ['wasmtime'], versionArgs: ['--version'] },
  schemathesis: { env: 'SCHEMATHESIS', candidates: ['schemathesis'], versionArgs: ['--version'] },
  chromium: { env: 'CHROMIUM', candidates: ['/usr/bin/chromium', 'chromium'], versionArgs: ['--version'] },
  // nginx prints its version on stderr; Debian installs it in /usr/sbin, often not on a user's PATH.
  nginx: { env: 'NGINX', candidates: ['nginx', '/usr/sbin/nginx'], versionArgs: ['-v'] },
  caddy: { env: 'CADDY', candidates: ['caddy'], versionArgs: ['version'] },
  openssl: { env: 'OPENSSL', candidates: ['openssl'], versionArgs: ['version'] },
  // Checks the release's service unit (test/e2e/deployment); works without systemd as PID 1.
  'systemd-analyze': { env: 'SYSTEMD_ANALYZE', candidates: ['systemd-analyze', '/usr/bin/systemd-analyze'], versionArgs: ['--version'] },
  // The SMTP server of the mail tests (test/support/smtp-sink.py): Python with aiosmtpd installed.
  aiosmtpd: { env: 'AIOSMTPD_PYTHON', candidates: ['python3'], versionArgs: ['-m', 'aiosmtpd', '--version'] },
};

export const inCi = process.env.CI === 'true';

function probe(path: string, versionArgs: string[]): string | undefined {
  if (path.includes('/') && !existsSync(path)) return undefined;
  const run = spawnSync(path, versionArgs, { encoding: 'utf8', timeout: 20_000 });
  if (run.error || run.status !== 0) return undefined;
  // grpcurl prints its version on stderr
  return `${run.stdout}${run.stderr}`.trim().split('\n')[0] ?? '';
}

const found = new Map<string, Tool | undefined>();

/** The tool, or undefined locally when absent. Throws under CI=true when absent. */
export function requireTool(name: keyof typeof SPECS & string): Tool | undefined {
  if (found.has(name)) return found.get(name);
  const spec = SPECS[name];
  if (!spec) throw new Error(`unknown tool ${name}`);
  const paths = [process.env[spec.env], ...spec.candidates].filter((p): p is string => Boolean(p));
  let tool: Tool | undefined;
  for (const path of paths) {
    const version = probe(path, spec.versionArgs);
    if (version !== undefined) {
      tool = { name, path, version };
      break;
    }
  }
  if (!tool && inCi) {
    throw new Error(`${name} is required under CI=true but was not found (tried ${paths.join(', ')}); .ci/run installs it`);
  }
  if (!tool) console.warn(`[tools] ${name} not found: skipping the suites that need it`);
  found.set(name, tool);
  return tool;
}
