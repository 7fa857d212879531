/**
 * The auth application on the in-memory platform, for its unit tests: the dependencies with a
 * public base (mail on), an account signed in, the link a mail carries, a refusal's code, and who
 * holds an address now.
 */
import { AppError } from '../../../errors.ts';
import { createMemoryPlatform, type MemoryPlatform } from '../../../platform/testing/memory-platform.ts';
import { parseAuthConfig } from '../../config.ts';
import { findAccountByEmailHash } from '../accounts.ts';
import { findActiveSession, loginWithPassword, registerWithPassword, sha256Hex, type ActiveSession, type AuthDeps } from '../index.ts';

/** The public base the mailed links start with. */
export const TEST_BASE = 'https://accounts.example.test';

/** A fresh in-memory platform and the auth dependencies over it, mail on; `env`: further settings. */
export function memoryAuth(env: Record<string, string> = {}): { platform: MemoryPlatform; deps: AuthDeps } {
  const platform = createMemoryPlatform();
  return { platform, deps: { platform, config: parseAuthConfig(new Map([['AUTH_PUBLIC_BASE_URL', TEST_BASE], ...Object.entries(env)])) } };
}

/** The token of the newest mail delivered to `to` whose link goes to `path` (what is queued is delivered first). */
export async function linkToken(platform: MemoryPlatform, to: string, path: string): Promise<string> {
  await platform.mail.deliver();
  const mail = platform.mail.delivered.filter((m) => m.recipient === to && m.text.includes(`${TEST_BASE}${path}?token=`)).at(-1);
  if (!mail) throw new Error(`no ${path} mail to ${to}`);
  return /token=([A-Za-z0-9_.-]+)/.exec(mail.text)![1]!;
}

/** 'ok', or the code of the AppError the call was refused with. */
export async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
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
