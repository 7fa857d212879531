/**
 * `remove_passkeys`: the choice, on a password change, a reset and "end all sessions", to remove
 * the account's passkeys too (a passkey is a sign-in of its own, which none of these ends). A JSON
 * boolean, or a form checkbox (`on`, or `true`/`false`).
 */
import * as v from 'valibot';

export const RemovePasskeysField = v.optional(
  v.pipe(
    v.union([v.boolean(), v.picklist(['on', 'true', 'false'])], 'remove_passkeys must be a boolean'),
    v.description('true (a form: `on`) also removes every passkey of the account; absent or false keeps them'),
  ),
);

/** Whether the field asks for the removal. */
export function wantsPasskeysRemoved(value: v.InferOutput<typeof RemovePasskeysField>): boolean {
  return value === true || value === 'on' || value === 'true';
}
