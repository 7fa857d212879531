/**
 * A JSON call as a same-origin page makes it (Origin and `Sec-Fetch-Site: same-origin`, what the
 * cross-site checks read), signed in when given a session, and the JSON of an answer whose
 * status is checked first (the body is the assertion's message when it is not the one expected).
 */
import { expect } from 'vitest';
import { cookieHeader, postJson } from '../auth/support.ts';

export const sameOriginHeaders = (origin: string): Record<string, string> => ({ origin, 'sec-fetch-site': 'same-origin' });

/** POSTs `body` as JSON to `target.url` + `path`, from a page of `target.origin`. */
export function postSameOrigin(target: { url: string; origin: string }, path: string, body: unknown, sessionId?: string): Promise<Response> {
  return postJson(target.url, path, body, { ...sameOriginHeaders(target.origin), ...(sessionId ? cookieHeader(sessionId) : {}) });
}

export async function jsonAnswer<T = Record<string, unknown>>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}
