/** The guest's environment: the host's settings, the application's variables by name, nothing else of the host's environment. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { guestEnvironment } from './guest-env.ts';

describe('guestEnvironment()', () => {
  it('passes AUTH_* and MAIL_DEAD_LETTER_RETENTION_SECONDS through, and keeps the host’s own secrets out', () => {
    const env = { AUTH_SESSION_TTL_SECONDS: '60', MAIL_DEAD_LETTER_RETENTION_SECONDS: '0', SMTP_PASSWORD: 'hunter2', POSTGRES_URL: 'postgres://u:pw@db/x', PATH: '/usr/bin' };
    const names = guestEnvironment(loadConfig([], {}), env).map(([name]) => name);
    expect(names).toContain('AUTH_SESSION_TTL_SECONDS');
    expect(names).toContain('MAIL_DEAD_LETTER_RETENTION_SECONDS');
    expect(names.filter((name) => ['SMTP_PASSWORD', 'POSTGRES_URL', 'PATH'].includes(name))).toEqual([]);
  });
});
