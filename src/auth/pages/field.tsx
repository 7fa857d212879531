/**
 * One labelled form field with its hint and its error right below it, tied together with
 * `aria-describedby` and `aria-invalid` (WAI-ARIA 1.2), so a screen reader reads the error with
 * the field. Errors present when the page loads are `role="alert"`; the client updates the hint
 * region, which is `aria-live="polite"`.
 */
export interface FieldProps {
  id: string;
  label: string;
  name: 'email' | 'password' | 'current_password' | 'new_password';
  type: 'email' | 'password';
  autocomplete: string;
  value?: string | undefined;
  minLength?: number | undefined;
  hint?: string | undefined;
  error?: string | undefined;
}

export function Field(props: FieldProps) {
  const hintId = `${props.id}-hint`;
  const errorId = `${props.id}-error`;
  const described = [props.hint ? hintId : '', props.error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        class="input"
        type={props.type}
        name={props.name}
        autocomplete={props.autocomplete}
        value={props.value}
        minlength={props.minLength}
        required
        autofocus={props.error !== undefined}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={described || undefined}
        spellcheck={props.type === 'email' ? false : undefined}
        autocapitalize={props.type === 'email' ? 'none' : undefined}
      />
      {props.hint && (
        <p id={hintId} class="field-hint" aria-live="polite" data-min-length={props.minLength}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={errorId} class="field-error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}
