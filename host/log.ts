/**
 * Structured host logs: one JSON object per line on stdout. Failures carry a `code`.
 * Never pass secrets, tokens, session ids or request bodies in fields.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface HostLogger {
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
}

export function jsonLogger(write: (line: string) => void = (l) => process.stdout.write(l)): HostLogger {
  return {
    log(level, msg, fields) {
      write(`${JSON.stringify({ ts: new Date().toISOString(), level, source: 'host', msg, ...fields })}\n`);
    },
  };
}

/** The message of an unknown thrown value, for logs (never for responses). */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
