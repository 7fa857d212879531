/// <reference path="./app-platform-types.d.ts" />
declare module 'app:platform/mail@0.1.0' {
  /**
   * Queues `message` for delivery; returns once the outbox holds it (the message then survives a
   * host restart). Returns the message's outbox id (for logs). `invalid` when a secret's
   * placeholder is missing from the text or the secrets break the limits above.
   */
  export function send(message: MailMessage): string;
  export type PlatformError = import('app:platform/types@0.1.0').PlatformError;
  /**
   * A secret the deliverer makes for one message when it delivers it, so that no store ever
   * holds it (a link's token that would work for whoever reads the outbox): at each delivery
   * attempt the deliverer draws 32 random bytes, writes the SHA-256 of their unpadded base64url
   * text (RFC 4648 §5; 43 characters), as lower-case hex, into key-value at `namespace`/`key`
   * with `ttl-ms` (replacing what an earlier attempt wrote: only the newest delivered copy's
   * secret matches), replaces every `placeholder` in the text with the base64url text, and sends
   * it. The secret itself is written nowhere.
   */
  export interface MailSecret {
    /**
     * the text standing for the secret in the message's text: 8 to 64 characters, at least once in it
     */
    placeholder: string,
    /**
     * where the secret's hash goes (key-value)
     */
    namespace: string,
    key: string,
    /**
     * the hash's lifetime, from the delivery
     */
    ttlMs: bigint,
  }
  /**
   * One message: plain text, and the same body as HTML when `html` is not empty (sent together
   * as multipart/alternative, RFC 2046 §5.1.4). Its `Date` is when it was queued.
   */
  export interface MailMessage {
    /**
     * the sender as a mailbox: `Name <address>` or `address`
     */
    sender: string,
    /**
     * one recipient address
     */
    recipient: string,
    subject: string,
    /**
     * the body, plain text (UTF-8)
     */
    text: string,
    /**
     * the body as an HTML document (UTF-8); empty for a plain-text message. Secrets' placeholders
     * are replaced in it as in `text` (the same secret in both).
     */
    html: string,
    /**
     * secrets made at delivery (at most 4, distinct placeholders); empty for a message without any
     */
    secrets: Array<MailSecret>,
    /**
     * the operator template that may stand for this message (its name; empty: none): a host with
     * a template of that name renders subject, text and html from it and `values` instead
     */
    template: string,
    /**
     * the template's values by name (`app_name`, `link`, …); a value may hold a secret's placeholder
     */
    values: Array<[string, string]>,
  }
}
