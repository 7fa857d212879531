/**
 * Options of `npm run serve:wasmtime`: flags win over environment variables, which win over
 * defaults (as for the Node host). Invalid values name the flag, the variable and the allowed
 * values, never the value itself.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as v from 'valibot';

export class LaunchError extends Error {
  override readonly name = 'LaunchError';
}

/** The runtime that serves gRPC; named in the refusal so the user knows where to go. */
export const GRPC_REFUSAL =
  'gRPC is not available under wasmtime serve (HTTP/1.1 only; gRPC needs HTTP/2): run the Node host instead, e.g. `npm start -- --transport grpc` (or both)';

const OPTIONS = {
  port: { env: 'PORT', default: '3000', help: 'TCP port' },
  host: { env: 'HOST', default: '127.0.0.1', help: 'interface to bind' },
  'data-dir': { env: 'DATA_DIR', default: './data/wasmtime', help: 'directory of the file store (created)' },
  transport: { env: 'TRANSPORT', default: 'http', allowed: ['http', 'grpc', 'both'], help: 'only http runs here' },
  realtime: { env: 'REALTIME', default: 'polling', allowed: ['polling', 'off'], help: 'live-update mode' },
  'instance-reuse': { env: 'INSTANCE_REUSE', default: '128', help: 'requests per guest instance before a fresh one (1 = a fresh instance per request; see docs/wasmtime.md)' },
} as const;

type Name = keyof typeof OPTIONS;

export interface LaunchConfig {
  port: number;
  host: string;
  dataDir: string;
  transport: 'http';
  realtime: 'polling' | 'off';
  instanceReuse: number;
}

const portSchema = v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(65535));
const countSchema = v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(1));

export function helpText(command = 'npm run serve:wasmtime --'): string {
  const rows = Object.entries(OPTIONS).map(([name, spec]) => {
    const allowed = 'allowed' in spec ? ` (${spec.allowed.join('|')})` : '';
    return `  --${name.padEnd(16)} ${spec.env.padEnd(15)} ${spec.help}${allowed}; default ${spec.default}`;
  });
  return [`Usage: ${command} [options]`, '', '  flag               variable        meaning', ...rows].join('\n');
}

/** Parses argv and the environment; throws LaunchError (before anything is built or listens). */
export function loadLaunchConfig(argv: string[], env: NodeJS.ProcessEnv): LaunchConfig {
  let flags: Record<string, string | undefined>;
  try {
    const options = Object.fromEntries(Object.keys(OPTIONS).map((k) => [k, { type: 'string' as const }]));
    flags = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Record<string, string | undefined>;
  } catch (error) {
    throw new LaunchError(`${error instanceof Error ? error.message : String(error)}; run with --help to list the options`);
  }
  const raw = (name: Name) => {
    const spec = OPTIONS[name];
    const value = flags[name] ?? env[spec.env] ?? spec.default;
    const source = flags[name] !== undefined ? `--${name}` : env[spec.env] !== undefined ? spec.env : 'default';
    if ('allowed' in spec && !(spec.allowed as readonly string[]).includes(value)) {
      if (name === 'transport') throw new LaunchError(GRPC_REFUSAL);
      throw new LaunchError(`invalid value for --${name} (${spec.env}) from ${source}: allowed values are ${spec.allowed.join(', ')}`);
    }
    return { value, source, spec };
  };
  const number = (name: Name, schema: typeof portSchema | typeof countSchema, expected: string) => {
    const { value, source, spec } = raw(name);
    const result = v.safeParse(schema, value);
    if (!result.success) throw new LaunchError(`invalid value for --${name} (${spec.env}) from ${source}: expected ${expected}`);
    return result.output;
  };
  const transport = raw('transport').value;
  if (transport !== 'http') throw new LaunchError(GRPC_REFUSAL);
  const realtime = raw('realtime').value;
  const host = raw('host').value;
  if (host.length === 0) throw new LaunchError('invalid value for --host (HOST): expected a non-empty value');
  return {
    port: number('port', portSchema, 'a port number 0-65535'),
    host,
    dataDir: resolve(raw('data-dir').value),
    transport: 'http',
    realtime: realtime === 'off' ? 'off' : 'polling',
    instanceReuse: number('instance-reuse', countSchema, 'a positive integer'),
  };
}
