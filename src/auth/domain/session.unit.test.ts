import { describe, expect, it } from 'vitest';
import { evolveSession, isSessionActive, type SessionEvent } from './session.ts';

const issued: SessionEvent = { type: 'auth_session_issued', data: { user_id: 'u1', email: 'a@example.com', aal: 'aal1', method: 'password', issued_at: 1000, expires_at: 5000 } };
const revoked: SessionEvent = { type: 'auth_session_revoked', data: { user_id: 'u1', revoked_at: 2000 } };

describe('session state', () => {
  it('is active between issue and expiry', () => {
    const state = evolveSession(undefined, issued);
    expect(isSessionActive(state, 1000)).toBe(true);
    expect(isSessionActive(state, 4999)).toBe(true);
    expect(isSessionActive(state, 5000)).toBe(false);
  });

  it('is inactive once revoked', () => {
    const state = [issued, revoked].reduce(evolveSession, undefined);
    expect(state?.revoked).toBe(true);
    expect(isSessionActive(state, 1500)).toBe(false);
  });

  it('is absent without an issue event', () => {
    expect(isSessionActive(evolveSession(undefined, revoked), 1500)).toBe(false);
  });
});
