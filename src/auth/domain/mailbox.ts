/**
 * The mailbox an address delivers to, for counting mail only (never for accounts: email.ts keeps
 * `box+a@` and `box+b@` apart, as they are different addresses). Providers route sub-addresses
 * (RFC 5233: `local+detail@domain`) to the mailbox `local@domain`, and most ignore case in the
 * local part, so one inbox has countless addresses: a budget per address alone lets anyone fill it
 * (OWASP Forgot Password Cheat Sheet, "rate limiting"). The fold here: the local part lower-cased
 * (Unicode), then cut at its first `+`; the domain is already in its one ASCII form.
 */

/** The mailbox of a normalized address (email.ts `normalizeEmail`): `Box+Tag@example.org` → `box@example.org`. */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  return `${plus > 0 ? local.slice(0, plus) : local}@${email.slice(at + 1)}`;
}

/** The mail domain of a normalized address. */
export function mailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}
