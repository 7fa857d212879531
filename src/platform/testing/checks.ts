/** Argument checks every platform backend performs the same way (see wit/), as StoreError 'invalid'. */
import { StoreError } from '../../errors.ts';

export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new StoreError('invalid', 'limit must be 1..=1000');
}

export function checkName(kind: string, value: string): void {
  if (value.length === 0 || value.length > 512) throw new StoreError('invalid', `${kind} must be 1..=512 characters`);
}

/** Payloads, metadata and document bodies are JSON texts; real backends store them as JSON. */
export function checkJson(kind: string, text: string): void {
  try {
    JSON.parse(text);
  } catch {
    throw new StoreError('invalid', `${kind} is not valid JSON`);
  }
}
