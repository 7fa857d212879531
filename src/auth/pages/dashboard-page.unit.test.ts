/** The account page's words: providers by their configured label, no password field for an account without one. */
import { describe, expect, it } from 'vitest';
import type { ActiveSession, SignInMethodsView } from '../application/index.ts';
import { DashboardPage } from './dashboard-page.tsx';

const session = { userId: 'u-1', email: 'a@example.com', method: 'oauth:provider_a', aal: 'aal1', expiresAt: 0, issuedAt: 0 } as unknown as ActiveSession;
const label = (id: string) => (id === 'provider_a' ? 'Company Login' : 'Provider B');

function methodsOf(hasPassword: boolean, providers: string[]): SignInMethodsView {
  const total = (hasPassword ? 1 : 0) + providers.length;
  return {
    hasPassword,
    methods: [
      ...(hasPassword ? [{ method: 'password', kind: 'password' as const, removable: total > 1, ...(total > 1 ? {} : { refusal: 'last_way_in' as const }) }] : []),
      ...providers.map((id) => ({
        method: `provider:${id}`,
        kind: 'provider' as const,
        id,
        name: id,
        removable: total > 1,
        ...(total > 1 ? {} : { refusal: 'last_way_in' as const }),
      })),
    ],
  };
}

function render(hasPassword: boolean, providersOffered: boolean, linked = providersOffered && !hasPassword ? ['provider_a'] : []): string {
  return String(
    DashboardPage({
      session,
      providers: providersOffered ? [{ id: 'provider_a', label: 'Company Login' }] : [],
      providerLabel: label,
      providersOffered,
      sessions: [],
      actions: undefined,
      security: { facts: { email: 'verified', hasPassword }, mailOn: true, minLength: 12, now: 0 },
      methods: methodsOf(hasPassword, linked),
    }),
  );
}

describe('DashboardPage()', () => {
  it('names a provider by its configured label, never its id, in the method and the linked list', () => {
    const page = render(false, true);
    expect(page).toMatch(/<dd id="method" data-method="oauth:provider_a">Company Login<\/dd>/);
    expect(page).toMatch(/data-providers="provider_a">Company Login<\/dd>/);
    // The removal button's value names the method for the server; people read the label.
    expect(page).toContain('value="provider:provider_a"');
    expect(page.replace(/(data-[a-z-]+|value)="[^"]*"/g, '')).not.toContain('provider_a');
  });
  it('asks no password to delete an account that has none', () => {
    expect(render(false, true)).not.toContain('id="delete-password"');
    expect(render(false, true)).toContain('sign in with your provider again first');
    expect(render(true, true)).toContain('id="delete-password"');
  });
  it('says nothing of providers when none is set up', () => {
    expect(render(true, false).replace(/data-[a-z-]+="[^"]*"/g, '')).not.toMatch(/provider/i);
  });
  it('disables the removal of the last way in and says why, in words, beside the button', () => {
    const page = render(false, true, ['provider_a']);
    expect(page).toMatch(/<button[^>]*value="provider:provider_a"[^>]*disabled=""[^>]*aria-describedby="method-reason-provider-provider-a"/);
    expect(page).toMatch(/<p class="field-hint method-reason" id="method-reason-provider-provider-a" data-reason="last_way_in">This is the only way left to sign in/);
    const two = render(true, true, ['provider_a']);
    expect(two).not.toContain('disabled=""');
    expect(two).not.toContain('only way left');
  });
});
