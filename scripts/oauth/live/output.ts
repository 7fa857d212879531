/**
 * The one output path of the live OAuth operator tools (preflight, browser smoke, callback and
 * evidence reports): PASS/FAIL/SKIP lines
 * and notes, every line passed through `redact` first. Tools never print a value they were given
 * or saw on the wire; redaction is the safety net behind that rule: any registered secret (client
 * secrets, private key, tokens, session ids, state, nonce, code …) becomes `[redacted]`, and every
 * email address except EXPECTED_EMAIL becomes `[email redacted]`.
 */
import type { ProviderId } from '../../../src/auth/oauth/provider-ids.ts';

export type Scope = 'shared' | 'parameters' | ProviderId;
export type Outcome = 'PASS' | 'FAIL' | 'SKIP';

export interface ToolCheck {
  scope: Scope;
  outcome: Outcome;
  message: string;
}

/** Shorter values are too common to hide without mangling ordinary words ("true", ports). */
const MIN_SECRET_LENGTH = 6;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/** Every form a secret can take in text: as is, URL-encoded, form-encoded. */
function forms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [...new Set([secret, encoded, encoded.replace(/%20/g, '+')])];
}

/** `text` with every secret replaced and every email but the expected one hidden. */
export function redact(text: string, secrets: Iterable<string>, expectedEmail?: string): string {
  // Longest first, so a secret that contains another is hidden whole.
  const all = [...new Set([...secrets].flatMap((s) => (s.length >= MIN_SECRET_LENGTH ? forms(s) : [])))].sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of all) out = out.split(secret).join('[redacted]');
  const expected = expectedEmail?.trim().toLowerCase();
  return out.replace(EMAIL, (email) => (expected && email.toLowerCase() === expected ? email : '[email redacted]'));
}

/** The secret values an operator environment holds (by variable name), with their parts. */
export function secretsOfEnv(env: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    // Broad on purpose (an unknown *_TOKEN is hidden too); endpoint URLs and JWT claims are not secrets.
    if (!/(SECRET|PRIVATE_KEY|TOKEN|PASSWORD|COOKIE)/.test(name) || /_(URL|ISSUER|AUDIENCE)$/.test(name) || !value.trim()) continue;
    out.push(value.trim());
    // A PEM (or escaped PEM) may leak line by line: hide each base64 line and the whole body.
    if (value.includes('-----BEGIN')) {
      const body = value.replace(/\\n/g, '\n').replace(/-----[A-Z ]+-----/g, '');
      out.push(...body.split(/\s+/).filter(Boolean), body.replace(/\s/g, ''));
    }
    // Cookie header values: each cookie value on its own.
    if (name.includes('COOKIE')) for (const part of value.split(';')) out.push(part.split('=').slice(1).join('=').trim());
  }
  return out.filter((s) => s.length >= MIN_SECRET_LENGTH);
}

export class ToolOutput {
  readonly checks: ToolCheck[] = [];
  readonly #secrets = new Set<string>();
  readonly #expectedEmail: string | undefined;
  readonly #write: (line: string) => void;

  constructor(options: { secrets?: Iterable<string>; expectedEmail?: string; write?: (line: string) => void } = {}) {
    for (const s of options.secrets ?? []) this.addSecret(s);
    this.#expectedEmail = options.expectedEmail;
    this.#write = options.write ?? ((line) => process.stdout.write(`${line}\n`));
  }

  /** Registers a value seen at run time (state, nonce, code, a captured cookie …). */
  addSecret(value: string | null | undefined): void {
    if (value && value.length >= MIN_SECRET_LENGTH) this.#secrets.add(value);
  }

  line(text: string): void {
    for (const line of text.split('\n')) this.#write(redact(line, this.#secrets, this.#expectedEmail));
  }

  check(scope: Scope, passed: boolean, message: string): boolean {
    this.#record({ scope, outcome: passed ? 'PASS' : 'FAIL', message });
    return passed;
  }

  pass(scope: Scope, message: string): void {
    this.#record({ scope, outcome: 'PASS', message });
  }

  fail(scope: Scope, message: string): void {
    this.#record({ scope, outcome: 'FAIL', message });
  }

  /** A check that did not run, and why (not a failure). */
  skip(scope: Scope, message: string): void {
    this.#record({ scope, outcome: 'SKIP', message });
  }

  note(message: string): void {
    this.line(`NOTE  ${message}`);
  }

  /** True when no check of this scope (or of the shared scopes) failed. */
  passedFor(scope: Scope): boolean {
    return !this.checks.some((c) => c.outcome === 'FAIL' && (c.scope === scope || c.scope === 'shared' || c.scope === 'parameters'));
  }

  get failures(): number {
    return this.checks.filter((c) => c.outcome === 'FAIL').length;
  }

  /** Prints the summary line and returns the exit code (0 all passed, 1 any failure). */
  finish(tool: string): number {
    const ran = this.checks.filter((c) => c.outcome !== 'SKIP').length;
    this.line(this.failures === 0 ? `${tool}: all ${ran} checks passed` : `${tool}: ${this.failures} of ${ran} checks failed`);
    return this.failures === 0 ? 0 : 1;
  }

  #record(check: ToolCheck): void {
    this.checks.push(check);
    this.line(`${check.outcome}  ${check.scope.padEnd(10)}  ${check.message}`);
  }
}
