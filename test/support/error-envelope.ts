/** Asserts the documented error envelope `{"error":{"code","message"}}` over real HTTP; returns the error. */
import { expect } from 'vitest';

export async function expectError(response: Response, status: number, code: string, message?: string): Promise<{ code: string; message: string }> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  if (message !== undefined) expect(body.error.message).toBe(message);
  return body.error;
}
