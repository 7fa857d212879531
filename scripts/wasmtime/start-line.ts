/**
 * What the `wasmtime serve` launcher's start-up line says of mail: under wasmtime the component
 * can only queue it (no mail import), in the data directory's outbox, and nothing delivers it
 * unless the drain runs beside (scripts/mail-drain.ts). Without AUTH_PUBLIC_BASE_URL mail is off.
 */
import { CAN_BUILD } from './prepare.ts';

export function wasmtimeMailState(dataDir: string, env: NodeJS.ProcessEnv): string {
  if (!env['AUTH_PUBLIC_BASE_URL']) return 'off (AUTH_PUBLIC_BASE_URL is not set)';
  // In a checkout the npm script; in a release (no build script) the release's command.
  const drain = CAN_BUILD ? 'npm run mail:drain --' : 'wasi-counter-auth mail-drain';
  return `queued in ${dataDir}'s outbox, not sent until \`${drain} --data-dir ${dataDir}\` runs beside this (SMTP_URL)`;
}
