/**
 * The setup the mail-and-page browser suites share: a host that mails to a real SMTP server
 * (aiosmtpd) with `AUTH_PUBLIC_BASE_URL` on its own port (./mailing-host.ts), and Chromium,
 * started together and stopped together (./with-chromium.ts).
 */
import type { Tool } from '../../harness/tools.ts';
import { startMailingHost, type MailingHost } from './mailing-host.ts';
import { withChromium, type WithChromium } from './with-chromium.ts';

export type MailBrowserHost = WithChromium<MailingHost>;

/** `env` adds to (or overrides) the host's mail settings; `base` is the host name in the public base URL (default 127.0.0.1). */
export function startMailBrowserHost(python: Tool, chromium: Tool, options: { env?: Record<string, string>; base?: 'localhost' | '127.0.0.1' } = {}): Promise<MailBrowserHost> {
  const starting = startMailingHost(python, { args: ['--shutdown-grace-ms', '300'], base: options.base ?? '127.0.0.1', env: options.env ?? {} });
  return withChromium(chromium, starting);
}
