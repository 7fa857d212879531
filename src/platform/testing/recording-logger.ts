/** A Logger that keeps every entry in memory so tests can assert on levels and error codes. */
import type { LogLevel, Logger } from '../ports.ts';

export interface LogEntry {
  level: LogLevel;
  message: string;
  fields: Record<string, unknown>;
}

export class RecordingLogger implements Logger {
  readonly entries: LogEntry[] = [];

  log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
    this.entries.push({ level, message, fields: { ...fields } });
  }

  /** The `code` field of every entry that has one, in order. */
  codes(): string[] {
    return this.entries.flatMap((entry) => (typeof entry.fields['code'] === 'string' ? [entry.fields['code']] : []));
  }

  /** Entries whose `code` field equals `code`. */
  withCode(code: string): LogEntry[] {
    return this.entries.filter((entry) => entry.fields['code'] === code);
  }
}
