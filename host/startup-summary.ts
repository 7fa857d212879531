/**
 * What a start turns on, in one place: the store, realtime, mail and its transport, what the
 * component says of itself (passkeys, each sign-in provider, the public base; from the start-up
 * probe, host/guest/startup-probe.ts), the trusted proxies. The `host_listening` line carries it,
 * and `--help` shows the same for the options and variables it was run with, so an operator reads
 * what is on before and after starting. Never a secret: server URLs lose their credentials.
 */
import { resolve } from 'node:path';
import type { StartupFeature } from '../src/contract/startup-probe.ts';
import type { HostConfig } from './config.ts';
import { isDevelopment } from './mail/settings.ts';
import { describeUrl } from './storage/redis/connection.ts';

/** What the component will say at start, as far as the host can tell before asking it (`--help`). */
function componentRules(config: HostConfig, env: NodeJS.ProcessEnv): StartupFeature[] {
  const base = env['AUTH_PUBLIC_BASE_URL'];
  return [
    { name: 'public base', state: base || 'unset' },
    { name: 'mail', state: base ? `on (${mailTransportDescription(config, env)})` : 'off (AUTH_PUBLIC_BASE_URL is not set)' },
    { name: 'passkeys', state: 'on when AUTH_PUBLIC_BASE_URL names a domain (its RP ID); checked at start' },
    { name: 'sign-in providers', state: 'each on when AUTH_ENABLE_OAUTH and AUTH_PROVIDER_<X>_ENABLED are true; its credentials are then required' },
  ];
}

function store(config: HostConfig): string {
  switch (config.db) {
    case 'sqlite':
      return `sqlite ${resolve(config.dataDir, 'app.sqlite')}`;
    case 'postgres':
      return `postgres ${config.postgresUrl ? describeUrl(config.postgresUrl) : '(no --postgres-url)'}, schema ${config.postgresSchema}`;
    case 'redis':
      return `redis ${config.redisUrl ? describeUrl(config.redisUrl) : '(no --redis-url)'}, keys ${config.redisPrefix}*`;
  }
}

/** Where the host delivers the mail the component queues. */
export function mailTransportDescription(config: HostConfig, env: NodeJS.ProcessEnv): string {
  if (config.smtpUrl !== undefined) return `SMTP ${describeUrl(config.smtpUrl)}`;
  return isDevelopment(config, env) ? 'logged on the console, no SMTP_URL: development only' : 'nowhere: SMTP_URL is required here, the start stops';
}

/**
 * The start's entries in order. `features` are the component's (undefined: not asked yet, for
 * `--help`); its `mail` entry, when on, is completed with the host's transport.
 */
export function startupSummary(config: HostConfig, env: NodeJS.ProcessEnv, features: readonly StartupFeature[] | undefined): StartupFeature[] {
  const fromComponent =
    features?.map(({ name, state }) => (name === 'mail' && state === 'on' ? { name, state: `on (${mailTransportDescription(config, env)})` } : { name, state })) ??
    componentRules(config, env);
  const realtime = config.realtime === 'local' && config.workers > 1 ? 'local (across the worker threads)' : config.realtime;
  return [
    { name: 'store', state: store(config) },
    { name: 'realtime', state: realtime },
    ...fromComponent,
    { name: 'trusted proxies', state: config.trustedProxies.length > 0 ? config.trustedProxies.join(',') : 'none (each client is its TCP peer)' },
  ];
}

/** `store: sqlite …; realtime: local; …`: the summary in the start-up line's message. */
export function summaryText(entries: readonly StartupFeature[]): string {
  return entries.map(({ name, state }) => `${name}: ${state}`).join('; ');
}

/** The summary as aligned lines, for `--help`. */
export function summaryLines(entries: readonly StartupFeature[]): string[] {
  const width = Math.max(...entries.map(({ name }) => name.length));
  return entries.map(({ name, state }) => `  ${name.padEnd(width)}  ${state}`);
}
