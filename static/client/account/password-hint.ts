/**
 * The live password hint under "Create an account": how far from the configured minimum, then
 * how strong by length alone. NIST SP 800-63B §3.1.1.2 asks for length, not composition rules,
 * so the hint counts code points the way the server's policy does (src/auth/domain/password-policy.ts).
 */
export function strengthText(length: number, minLength: number): { text: string; level: 'short' | 'ok' | 'strong' } {
  if (length < minLength) {
    const missing = minLength - length;
    return { text: `At least ${minLength} characters: ${missing} more to go.`, level: 'short' };
  }
  if (length < minLength + 8) return { text: `Meets the minimum of ${minLength}. Longer is stronger.`, level: 'ok' };
  return { text: 'Strong: a long password.', level: 'strong' };
}

export function bindPasswordHint(input: HTMLInputElement | null): void {
  const hintId = input
    ?.getAttribute('aria-describedby')
    ?.split(' ')
    .find((id) => id.endsWith('-hint'));
  const hint = hintId ? document.getElementById(hintId) : null;
  if (!input || !hint) return;
  const minLength = Number(hint.dataset['minLength'] ?? input.minLength);
  const initial = hint.textContent ?? '';
  input.addEventListener('input', () => {
    if (input.value.length === 0) {
      hint.textContent = initial;
      delete hint.dataset['level'];
      return;
    }
    const { text, level } = strengthText([...input.value.normalize('NFKC')].length, minLength);
    hint.textContent = text;
    hint.dataset['level'] = level;
  });
}
