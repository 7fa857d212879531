/** @module Interface app:platform/mail@0.1.0 **/
/**
 * Queues `message` for delivery; returns once the outbox holds it (the message then survives a
 * host restart). Returns the message's outbox id (for logs).
 */
export function send(message: MailMessage): string;
export type PlatformError = import('./app-platform-types.js').PlatformError;
/**
 * One plain-text message.
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
}
