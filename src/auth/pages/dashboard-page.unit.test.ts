/** The account page's words: providers by their configured label, no password field for an account without one. */
import { describe, expect, it } from 'vitest';
import type { ActiveSession } from '../application/index.ts';
import { DashboardPage } from './dashboard-page.tsx';

const session = { userId: 'u-1', email: 'a@example.com', method: 'oauth:provider_a', aal: 'aal1', expiresAt: 0, issuedAt: 0 } as unknown as ActiveSession;
const label = (id: string) => (id === 'provider_a' ? 'Company Login' : 'Provider B');

function render(hasPassword: boolean, providersOffered: boolean): string {
  return String(
    DashboardPage({
      session,
      providers: providersOffered ? [{ id: 'provider_a', label: 'Company Login' }] : [],
      providerLabel: label,
      providersOffered,
      sessions: [],
      actions: undefined,
      security: { facts: { email: 'verified', hasPassword }, mailOn: true, minLength: 12, now: 0 },
    }),
  );
}

describe('DashboardPage()', () => {
  it('names a provider by its configured label, never its id, in the method and the linked list', () => {
    const page = render(false, true);
    expect(page).toMatch(/<dd id="method" data-method="oauth:provider_a">Company Login<\/dd>/);
    expect(page).toMatch(/data-providers="provider_a">Company Login<\/dd>/);
    expect(page.replace(/data-[a-z-]+="[^"]*"/g, '')).not.toContain('provider_a');
  });
  it('asks no password to delete an account that has none', () => {
    expect(render(false, true)).not.toContain('id="delete-password"');
    expect(render(false, true)).toContain('sign in with your provider again first');
    expect(render(true, true)).toContain('id="delete-password"');
  });
  it('says nothing of providers when none is set up', () => {
    expect(render(true, false).replace(/data-[a-z-]+="[^"]*"/g, '')).not.toMatch(/provider/i);
  });
});
