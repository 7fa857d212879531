import { describe, expect, it } from 'vitest';
import { mailboxOf, mailDomainOf } from './mailbox.ts';

describe('mailboxOf()', () => {
  it('folds the sub-address and the case of the local part', () => {
    expect(mailboxOf('box+1@example.org')).toBe('box@example.org');
    expect(mailboxOf('box+a+b@example.org')).toBe('box@example.org');
    expect(mailboxOf('Box@example.org')).toBe('box@example.org');
    expect(mailboxOf('ÉLAN+x@example.org')).toBe('élan@example.org');
  });
  it('keeps a local part that starts with + and other addresses apart', () => {
    expect(mailboxOf('+x@example.org')).toBe('+x@example.org');
    expect(mailboxOf('box@example.org')).not.toBe(mailboxOf('box@example.net'));
  });
});

describe('mailDomainOf()', () => {
  it('is the part after the last @', () => {
    expect(mailDomainOf('box+1@mail.example.org')).toBe('mail.example.org');
  });
});
