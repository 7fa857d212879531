/**
 * wasi:cli for the Node host: the guest's environment is the configuration the host resolved
 * (never the host's whole process environment), stdout/stderr go to the host's streams.
 */
import { InputStream, ByteQueue, OutputStream, processSink } from './io.ts';

class TerminalInput {}
class TerminalOutput {}

export function cliImports(environment: ReadonlyArray<readonly [string, string]>) {
  const env = environment.map(([k, v]) => [k, v] as [string, string]);
  const stdout = new OutputStream(processSink(process.stdout));
  const stderr = new OutputStream(processSink(process.stderr));
  const stdinQueue = new ByteQueue();
  stdinQueue.end();
  const stdin = new InputStream(stdinQueue);
  return {
    'wasi:cli/environment': {
      getEnvironment: () => env,
      getArguments: () => [],
      initialCwd: () => undefined,
    },
    'wasi:cli/exit': {
      exit: () => {
        throw new Error('the guest called wasi:cli/exit');
      },
    },
    'wasi:cli/stdin': { getStdin: () => stdin },
    'wasi:cli/stdout': { getStdout: () => stdout },
    'wasi:cli/stderr': { getStderr: () => stderr },
    'wasi:cli/terminal-input': { TerminalInput },
    'wasi:cli/terminal-output': { TerminalOutput },
    'wasi:cli/terminal-stdin': { getTerminalStdin: () => undefined },
    'wasi:cli/terminal-stdout': { getTerminalStdout: () => undefined },
    'wasi:cli/terminal-stderr': { getTerminalStderr: () => undefined },
  };
}
