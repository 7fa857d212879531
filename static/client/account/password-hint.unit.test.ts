import { describe, expect, it } from 'vitest';
import { strengthText } from './password-hint.ts';

describe('strengthText()', () => {
  it('counts down to the configured minimum', () => {
    expect(strengthText(3, 12)).toEqual({ text: 'At least 12 characters: 9 more to go.', level: 'short' });
  });
  it('says when the minimum is met, then when it is long', () => {
    expect(strengthText(12, 12).level).toBe('ok');
    expect(strengthText(19, 12).level).toBe('ok');
    expect(strengthText(20, 12)).toEqual({ text: 'Strong: a long password.', level: 'strong' });
  });
});
