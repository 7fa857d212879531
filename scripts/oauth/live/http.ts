/**
 * HTTP for the live tools: never follows redirects (the tools inspect them), bounded by a
 * deadline, and turns a network failure into a message that names the origin, not the request.
 */
const DEADLINE_MS = 15_000;

export type HttpResult = { response: Response } | { problem: string };

export async function request(url: string, init: RequestInit = {}): Promise<HttpResult> {
  try {
    return { response: await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(DEADLINE_MS), ...init }) };
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const code =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${DEADLINE_MS / 1000} s`
        : typeof cause?.code === 'string'
          ? cause.code
          : typeof cause?.message === 'string'
            ? cause.message.slice(0, 80)
            : 'network error';
    return { problem: `could not reach ${new URL(url).origin} (${code})` };
  }
}

/** The JSON body, or undefined when the body is not JSON. */
export async function jsonBody(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** The `error.code` of the service's error envelope, when the body is one. */
export function errorCode(body: unknown): string | undefined {
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' && /^[a-z_]{1,40}$/.test(code) ? code : undefined;
}
