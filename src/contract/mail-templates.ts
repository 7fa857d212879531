/**
 * The mails an operator may replace with their own templates (host option `--mail-templates`,
 * docs/operating.md "Mail templates"), and the values each one is given. Shared by the component,
 * which names a message's template and its values when it queues it (WIT `mail.mail-message`),
 * and the host, which checks a templates directory at start against this list and renders from it.
 * Dependency-free.
 */

/** Each template's name and the `{{value}}`s it may use (every one is always given). */
export const MAIL_TEMPLATES = {
  verify: ['app_name', 'link'],
  reset: ['app_name', 'link'],
  password_changed: ['app_name', 'link'],
  account_exists: ['app_name', 'login_link', 'reset_link'],
  passkey_added: ['app_name', 'passkey_name', 'added_at', 'link', 'reset_link'],
  sign_in_method_removed: ['app_name', 'method', 'link'],
  email_change: ['app_name', 'link'],
  email_changed: ['app_name', 'link', 'reset_link'],
} as const satisfies Record<string, readonly string[]>;

export type MailTemplateName = keyof typeof MAIL_TEMPLATES;

/** The files of one template: `<name>.subject.txt` (one line), `<name>.txt`, `<name>.html`; any may be left out. */
export const MAIL_TEMPLATE_PARTS = ['subject.txt', 'txt', 'html'] as const;

export type MailTemplatePart = (typeof MAIL_TEMPLATE_PARTS)[number];

export function isMailTemplateName(name: string): name is MailTemplateName {
  return Object.hasOwn(MAIL_TEMPLATES, name);
}
