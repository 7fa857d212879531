/**
 * The batch amount: a slider and a number field kept in step, both over what the API accepts
 * (1 to 2 147 483 647). The slider moves on BATCH_STOPS; a typed amount moves it to the nearest
 * stop below. The field may still hold any text: it is sent as typed, so the server's validation
 * (and its message) stays the one rule; the field is marked invalid meanwhile.
 */
import { BATCH_STOPS, formatAmount, isBatchAmount, stopFor } from '../../src/counter/pages/format.ts';
import type { PageElements } from './elements.ts';

/** Wires the two controls; returns a reader of the amount to send (NaN when the field is empty). */
export function bindBatch(el: PageElements): () => number {
  const read = (): number => (el.batchAmount.value.trim() === '' ? Number.NaN : Number(el.batchAmount.value));

  const showAmount = (): void => {
    const value = read();
    const valid = isBatchAmount(value);
    const text = valid ? formatAmount(value) : el.batchAmount.value.trim() || '?';
    for (const label of document.querySelectorAll<HTMLElement>('.batch-value')) label.textContent = text;
    el.batchAmount.setAttribute('aria-invalid', String(!valid));
    if (valid) {
      el.batchRange.value = String(stopFor(value));
      el.batchRange.setAttribute('aria-valuetext', String(value));
    }
  };

  el.batchRange.addEventListener('input', () => {
    el.batchAmount.value = String(BATCH_STOPS[Number(el.batchRange.value)] ?? BATCH_STOPS[0]);
    showAmount();
  });
  el.batchAmount.addEventListener('input', showAmount);
  showAmount();
  return read;
}
