/**
 * Readers for single OAuth configuration variables (valibot). Each returns the value or records
 * a problem naming the variable and the rule it breaks, never the value.
 */
import * as v from 'valibot';

export type EnvSource = ReadonlyMap<string, string> | Readonly<Record<string, string | undefined>>;

export interface ConfigProblem {
  variable: string;
  rule: string;
}

/** Reads variables and collects problems, so one error lists every broken variable. */
export class EnvReader {
  readonly problems: ConfigProblem[] = [];
  readonly #env: EnvSource;
  constructor(env: EnvSource) {
    this.#env = env;
  }

  /** The trimmed value, or undefined when unset or blank. */
  raw(name: string): string | undefined {
    const value = this.#env instanceof Map ? this.#env.get(name) : (this.#env as Record<string, string | undefined>)[name];
    const trimmed = value?.trim();
    return trimmed === undefined || trimmed === '' ? undefined : trimmed;
  }

  has(name: string): boolean {
    return this.raw(name) !== undefined;
  }

  problem(variable: string, rule: string): void {
    this.problems.push({ variable, rule });
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = v.safeParse(v.picklist(['true', 'false']), value.toLowerCase());
    if (!parsed.success) {
      this.problem(name, 'must be true or false');
      return fallback;
    }
    return parsed.output === 'true';
  }

  /** An absolute URL; https unless its host is loopback (local development and tests). */
  url(name: string, fallback?: string): URL | undefined {
    const value = this.raw(name) ?? fallback;
    if (value === undefined) return undefined;
    const parsed = v.safeParse(v.pipe(v.string(), v.url()), value);
    const url = parsed.success ? parseUrl(value) : undefined;
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      this.problem(name, 'must be an absolute http(s) URL');
      return undefined;
    }
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      this.problem(name, 'must use https (http only for localhost / 127.0.0.1 / [::1])');
      return undefined;
    }
    return url;
  }
}

/** `new URL` without throwing (`URL.canParse` does not exist inside the component). */
export function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** True for a dotted IPv4 or bracketed IPv6 host. */
export function isIpHost(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[');
}
