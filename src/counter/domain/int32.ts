/**
 * Signed 32-bit bounds and amount rules. The public count is an i32 (spec: CounterView.count),
 * so every amount and every resulting value must stay inside this range.
 */

export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

/** Public validation messages, shared with the transport validators so wording never drifts. */
export const AMOUNT_MESSAGES = {
  required: 'amount is required',
  notInteger: 'amount must be an integer',
  notPositive: 'amount must be positive',
  tooLarge: `amount must not exceed ${INT32_MAX}`,
} as const;

export const OUT_OF_RANGE_MESSAGE = 'the counter would leave the 32-bit range';

export function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
}
