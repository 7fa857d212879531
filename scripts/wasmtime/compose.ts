/**
 * Composition for `wasmtime serve`, which cannot supply the project's own imports: `wac plug`
 * (wac-cli) links the committed password component's export `app:platform/password-hashing`
 * into a JS component's import of it, giving one component whose remaining imports are WASI.
 */
import { execFileSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { locateTool } from './tools.ts';

/** Built from components/password-hashing/ by scripts/password-component.ts and committed. */
export const PASSWORD_COMPONENT = join(import.meta.dirname, '..', '..', 'components', 'password-hashing', 'password-hashing.wasm');

/** Writes `socket` with its password-hashing import satisfied to `out` (via a temporary name). */
export function composeWithPasswordHashing(socket: string, out: string): void {
  const wac = locateTool('wac');
  const temp = `${out}.${process.pid}.tmp`;
  execFileSync(wac[0]!, [...wac.slice(1), 'plug', socket, '--plug', PASSWORD_COMPONENT, '-o', temp], { stdio: ['ignore', 'inherit', 'inherit'] });
  renameSync(temp, out);
}
