import { describe, expect, it } from 'vitest';
import { placeLoginError } from './login-errors.ts';

describe('placeLoginError()', () => {
  it('puts a validation error on the email when the typed email is not one', () => {
    expect(placeLoginError('validation', 'register', 'nope', 12)).toMatchObject({ form: 'register', place: 'email' });
  });
  it('puts it on the password, with the configured minimum, when the email is fine', () => {
    expect(placeLoginError('validation', 'register', 'a@example.com', 14)).toEqual({
      form: 'register',
      place: 'password',
      code: 'validation',
      text: 'Use at least 14 characters. A few rare symbols are not accepted.',
    });
  });
  it('keeps errors about neither field at the top of their form', () => {
    expect(placeLoginError('rate_limited', 'login', 'a@example.com', 12)).toMatchObject({ form: 'login', place: 'form' });
    expect(placeLoginError('something_new', undefined, undefined, 12)).toMatchObject({ form: 'login', place: 'form', text: 'Sign-in failed. Try again.' });
  });
  it('shows nothing without an error code', () => expect(placeLoginError(undefined, 'login', undefined, 12)).toBeUndefined());
});
