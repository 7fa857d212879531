/** node:util parseArgs errors in plain words (the option's name, never a value: it may be a secret). */

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function plainArgumentError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(--?[A-Za-z0-9-]+)/.exec(message)?.[1];
  switch (errorCode(error)) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option ?? ''}`.trimEnd();
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `${option ?? 'an option'} needs a value, as in ${option ?? '--port'} 4000`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return 'unexpected argument: every option is written --name value';
    default:
      return message;
  }
}
