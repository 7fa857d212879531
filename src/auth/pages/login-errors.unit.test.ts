import { describe, expect, it } from 'vitest';
import { placeLoginError } from './login-errors.ts';

describe('placeLoginError()', () => {
  it('puts a validation error on the email when the typed email is not one', () => {
    expect(placeLoginError({ code: 'validation', form: 'register', reason: undefined }, 'nope', 12, 0)).toMatchObject({ form: 'register', place: 'email' });
  });
  it('puts it on the password, in the words of its one reason, when the email is fine', () => {
    const placed = (reason: string | undefined) => placeLoginError({ code: 'validation', form: 'register', reason }, 'a@example.com', 14, 0);
    expect(placed('too_short')).toEqual({ form: 'register', place: 'password', code: 'validation', text: 'Use at least 14 characters.' });
    expect(placed('too_long')?.text).toBe('Use at most 1024 characters.');
    expect(placed('unsupported_character')?.text).toBe('This password contains a rare symbol the service cannot accept. Replace it with another character.');
    expect(placed(undefined)?.text).toBe('Check the password and try again.');
    expect(placed('toString')?.text).toBe('Check the password and try again.');
  });
  it('keeps errors about neither field at the top of their form', () => {
    expect(placeLoginError({ code: 'rate_limited', form: 'login', reason: undefined }, 'a@example.com', 12, 0)).toMatchObject({ form: 'login', place: 'form' });
    expect(placeLoginError({ code: 'something_new', form: undefined, reason: undefined }, undefined, 12, 0)).toMatchObject({
      form: 'login',
      place: 'form',
      text: 'Sign-in failed. Try again.',
    });
  });
  it('says when a rate limit lifts', () => {
    expect(placeLoginError({ code: 'rate_limited', form: 'login', reason: undefined, retryAt: 1000 + 110 }, undefined, 12, 1000 * 1000)?.text).toBe(
      'Too many attempts. Try again in 2 minutes.',
    );
  });
  it('shows nothing without an error code', () => expect(placeLoginError({ code: undefined, form: 'login', reason: undefined }, undefined, 12, 0)).toBeUndefined());
});
