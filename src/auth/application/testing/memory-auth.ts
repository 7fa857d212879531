/**
 * The auth application on the in-memory platform, for its unit tests: the dependencies with a
 * public base (mail on), an account signed in, and who holds an address now.
 */
import { createMemoryPlatform, type MemoryPlatform } from '../../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../../config.ts';
import { findAccountByEmailHash } from '../accounts.ts';
import { findActiveSession, loginWithPassword, registerWithPassword, sha256Hex, type ActiveSession, type AuthDeps } from '../index.ts';

/** The public base the mailed links start with. */
export const TEST_BASE = 'https://accounts.example.test';

/** A fresh in-memory platform and the auth dependencies over it, mail on. */
export function memoryAuth(): { platform: MemoryPlatform; deps: AuthDeps } {
  const platform = createMemoryPlatform();
  return { platform, deps: { platform, config: parseAuthConfig(new Map([['AUTH_PUBLIC_BASE_URL', TEST_BASE]])) } };
}

/** `who` registered (unless `register` is false) and signed in; its session. */
export async function signedIn(platform: MemoryPlatform, deps: AuthDeps, who: { email: string; password: string }, register = true): Promise<ActiveSession> {
  if (register) await registerWithPassword(deps, who);
  platform.respond();
  const login = await loginWithPassword(deps, who);
  platform.respond();
  return (await findActiveSession(deps, login.session.sessionId))!;
}

/** The user id whose claim on `email` counts, if any. */
export async function ownerOf(platform: MemoryPlatform, email: string): Promise<string | undefined> {
  return findAccountByEmailHash(platform, await sha256Hex(email))?.userId;
}
