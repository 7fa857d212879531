/**
 * The batch amount: a slider (1–100) and a number field kept in step. The field may hold any
 * text; it is sent as typed so the server's validation (and its message) is the one rule.
 */
import { BATCH_MAX, BATCH_MIN } from '../../src/ui/format.ts';
import type { PageElements } from './elements.ts';

function inRange(value: number): boolean {
  return Number.isInteger(value) && value >= BATCH_MIN && value <= BATCH_MAX;
}

/** Wires the two controls; returns a reader of the amount to send (NaN when the field is empty). */
export function bindBatch(el: PageElements): () => number {
  const read = (): number => (el.batchAmount.value.trim() === '' ? Number.NaN : Number(el.batchAmount.value));

  const showAmount = (): void => {
    const text = el.batchAmount.value.trim() || '?';
    for (const value of document.querySelectorAll<HTMLElement>('.batch-value')) value.textContent = text;
    el.batchAmount.setAttribute('aria-invalid', String(!inRange(read())));
  };

  el.batchRange.addEventListener('input', () => {
    el.batchAmount.value = el.batchRange.value;
    showAmount();
  });
  el.batchAmount.addEventListener('input', () => {
    const value = read();
    if (inRange(value)) el.batchRange.value = String(value);
    showAmount();
  });
  showAmount();
  return read;
}
