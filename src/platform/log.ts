/** Guest logs: one JSON object per line on stdout (the host forwards it to its own stdout). */
import type { Logger } from './ports.ts';

export function consoleLogger(write: (line: string) => void = (line) => console.log(line)): Logger {
  return {
    log(level, message, fields) {
      write(JSON.stringify({ ts: new Date().toISOString(), level, source: 'component', msg: message, ...fields }));
    },
  };
}
