/** The start-up summary: what is on, from the options and the component's own report, without a credential. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { startupSummary, summaryText } from './startup-summary.ts';

const asRecord = (entries: ReturnType<typeof startupSummary>) => Object.fromEntries(entries.map(({ name, state }) => [name, state]));

describe('startupSummary()', () => {
  it('names the store, realtime and trusted proxies from the options', () => {
    const config = loadConfig(['--db', 'postgres', '--postgres-url', 'postgres://app:hunter2@db.internal:5432/counter', '--trusted-proxies', '127.0.0.1/32'], {});
    const summary = asRecord(startupSummary(config, {}, []));
    expect(summary).toEqual({ store: 'postgres postgres://db.internal:5432/counter, schema wasi_app', realtime: 'postgres', 'trusted proxies': '127.0.0.1/32' });
    expect(JSON.stringify(summary)).not.toContain('hunter2');
  });

  it("puts the component's features between them, the mail transport added to mail that is on, credentials left out", () => {
    const config = loadConfig(['--smtp-url', 'smtp://relay:s3cret@mail.example:587'], {});
    const features = [
      { name: 'public base', state: 'https://counter.example' },
      { name: 'mail', state: 'on' },
      { name: 'passkeys', state: 'on (RP ID counter.example)' },
    ];
    const entries = startupSummary(config, {}, features);
    expect(entries.map(({ name }) => name)).toEqual(['store', 'realtime', 'public base', 'mail', 'passkeys', 'trusted proxies']);
    expect(asRecord(entries)['mail']).toBe('on (SMTP smtp://mail.example:587)');
    expect(summaryText(entries)).not.toContain('s3cret');
  });

  it('says a development host logs mail, and keeps a component that says mail is off', () => {
    const config = loadConfig([], {});
    expect(asRecord(startupSummary(config, {}, [{ name: 'mail', state: 'on' }]))['mail']).toBe('on (logged on the console, no SMTP_URL: development only)');
    expect(asRecord(startupSummary(config, {}, [{ name: 'mail', state: 'off (AUTH_PUBLIC_BASE_URL is not set)' }]))['mail']).toBe('off (AUTH_PUBLIC_BASE_URL is not set)');
  });

  it('before the component is asked (--help), states its rules with what the host knows', () => {
    const summary = asRecord(startupSummary(loadConfig([], {}), { AUTH_PUBLIC_BASE_URL: 'http://localhost:3000' }, undefined));
    expect(summary['public base']).toBe('http://localhost:3000');
    expect(summary['mail']).toBe('on (logged on the console, no SMTP_URL: development only)');
    expect(summary['passkeys']).toMatch(/^on when AUTH_PUBLIC_BASE_URL names a domain/);
  });
});
