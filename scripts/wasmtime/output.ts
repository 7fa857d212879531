/**
 * `wasmtime serve` prefixes each line a guest writes with `stdout [<request>] :: ` (or stderr).
 * Stripping it keeps the project's log format: one JSON object per line.
 */
const PREFIX = /^(?:stdout|stderr) \[\d+\] :: /;

export function guestLogLine(line: string): string {
  return line.replace(PREFIX, '');
}

/** Splits a byte stream into lines, calling `onLine` for each complete one. */
export function lineSplitter(onLine: (line: string) => void): (chunk: Buffer) => void {
  let partial = '';
  return (chunk) => {
    partial += chunk.toString('utf8');
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  };
}
