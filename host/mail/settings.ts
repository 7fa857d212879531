/**
 * Which transport the outbox delivers through. With `SMTP_URL`, SMTP. Without it, the host logs
 * each message on the console, but only in development: a host listening on loopback only whose
 * public base URL (if any) is not https on a public name. Anywhere else mail would silently go
 * nowhere, so the host refuses to start (a configuration error, exit 2).
 */
import { ConfigError, type HostConfig } from '../config.ts';
import { isLoopbackAddress } from '../net/cidr.ts';
import type { HostLogger } from '../log.ts';
import { consoleTransport, smtpTransport, type MailTransport } from './transport.ts';

/** The variable naming the site's public base URL (links in mail are built from it by the component). */
const PUBLIC_BASE_URL_VARIABLE = 'AUTH_PUBLIC_BASE_URL';

function publicHttpsBase(env: NodeJS.ProcessEnv): boolean {
  const raw = env[PUBLIC_BASE_URL_VARIABLE];
  if (!raw) return false;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' && !isLoopbackAddress(url.hostname) && !url.hostname.endsWith('.localhost');
  } catch {
    return false;
  }
}

export function isDevelopment(config: Pick<HostConfig, 'host'>, env: NodeJS.ProcessEnv): boolean {
  return isLoopbackAddress(config.host) && !publicHttpsBase(env);
}

/** The transport the configuration names; ConfigError when mail would have nowhere to go. */
export function mailTransportFor(config: HostConfig, env: NodeJS.ProcessEnv, logger: HostLogger): MailTransport {
  if (config.smtpUrl !== undefined) return smtpTransport({ url: config.smtpUrl, user: config.smtpUser, password: config.smtpPassword });
  if (!isDevelopment(config, env)) {
    throw new ConfigError(
      `mail has nowhere to go: set --smtp-url (SMTP_URL) to your SMTP server; only a development host (listening on loopback only, without an https ${PUBLIC_BASE_URL_VARIABLE}) may log mail on the console instead`,
    );
  }
  return consoleTransport(logger);
}
