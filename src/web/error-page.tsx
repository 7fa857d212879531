/**
 * The error envelope as a page, for a browser: when a request's `Accept` prefers HTML
 * (src/http/accept.ts), an error answer (404 for an unknown address, 405, 429, 5xx, …) becomes a
 * page in the product's design, at the same status and with the same headers (`Retry-After`,
 * `Allow`, …), saying in plain words what happened and what to do. API clients keep the JSON
 * envelope. The words are the page's, chosen by the envelope's code; the envelope's message (an
 * API client's text) is not shown.
 */
import * as v from 'valibot';
import { APP_ERROR_CODES, type AppErrorCode } from '../errors.ts';
import { waitWords } from '../text/wait-words.ts';
import { PAGE_HEADERS } from './security-headers.ts';
import { AccountMenu, Document, Topbar } from './shell.tsx';
import { sharedPageAssets } from './page-assets.ts';

const EnvelopeSchema = v.object({ error: v.object({ code: v.string() }) });

export interface Words {
  title: string;
  text: string;
  /** the way on: where, and in which words */
  link?: { href: string; text: string };
}

const HOME = { href: '/', text: 'Back to the counter' };

function wordsFor(code: AppErrorCode | undefined, status: number, retryAfter: number | undefined): Words {
  switch (code) {
    case 'not_found':
      return { title: 'Page not found', text: 'There is nothing at this address. It may have moved, or the link may be mistyped.', link: HOME };
    case 'method_not_allowed':
      return { title: 'Not available this way', text: 'This address does not answer that kind of request. Open the page again from the counter.', link: HOME };
    case 'unauthorized':
      return { title: 'Sign in first', text: 'This needs you to be signed in.', link: { href: '/login', text: 'Sign in' } };
    case 'forbidden':
      return { title: 'Refused', text: 'The request was refused. Go back, reload the page and try again.', link: HOME };
    case 'rate_limited':
      return { title: 'Too many requests', text: `Wait a moment, then try again${retryAfter ? ` ${waitWords(retryAfter)}` : ''}.`, link: HOME };
    case 'payload_too_large':
    case 'unsupported_media_type':
    case 'validation':
      return { title: 'That could not be read', text: 'The request was not in a form this service takes. Go back and try again.', link: HOME };
    case 'store':
      return { title: 'Unavailable for a moment', text: 'The service cannot reach its storage. Try again in a minute.', link: HOME };
    default:
      if (status >= 500) return { title: 'Something went wrong', text: 'The service failed to answer. Try again in a minute.', link: HOME };
      return { title: 'That did not work', text: 'The request was refused. Go back and try again.', link: HOME };
  }
}

export function ErrorPage(props: { status: number; words: Words }) {
  const assets = sharedPageAssets();
  const { words } = props;
  return (
    <Document title={`${words.title} · Counter`} script={assets.accountScript} assets={assets}>
      <Topbar icon={assets.icon}>
        <AccountMenu session={{ state: 'unknown' }} />
      </Topbar>
      <div class="auth-page auth-error">
        <section class="card auth-narrow" aria-labelledby="error-title" id="error-page" data-status={props.status}>
          <div class="card-head">
            <h1 id="error-title">{words.title}</h1>
          </div>
          <p class="hint" id="error-text">
            {words.text}
          </p>
          {words.link && (
            <p class="form-links">
              <a href={words.link.href} id="error-way-on">
                {words.link.text}
              </a>
            </p>
          )}
        </section>
      </div>
    </Document>
  );
}

function codeOf(body: string): AppErrorCode | undefined {
  try {
    const parsed = v.safeParse(EnvelopeSchema, JSON.parse(body));
    const code = parsed.success ? parsed.output.error.code : undefined;
    return (APP_ERROR_CODES as readonly string[]).includes(code ?? '') ? (code as AppErrorCode) : undefined;
  } catch {
    return undefined;
  }
}

/** An error page with its own words, at `status`, keeping `headers` (`Retry-After`, `Allow`, …). */
export function errorPageResponse(status: number, words: Words, headers: Headers = new Headers()): Response {
  const page = <ErrorPage status={status} words={words} />;
  const out = new Headers(headers);
  out.delete('content-length');
  for (const [name, value] of Object.entries(PAGE_HEADERS)) out.set(name, value);
  out.set('content-type', 'text/html; charset=UTF-8');
  out.append('vary', 'Accept');
  return new Response(`<!doctype html>${page.toString()}`, { status, headers: out });
}

/** `answer` as a page when it is a JSON error (status ≥ 400); anything else as it is. */
export async function errorAsPage(answer: Response): Promise<Response> {
  if (answer.status < 400 || !(answer.headers.get('content-type') ?? '').startsWith('application/json')) return answer;
  const code = codeOf(await answer.text());
  const retry = Number(answer.headers.get('retry-after') ?? '');
  return errorPageResponse(answer.status, wordsFor(code, answer.status, Number.isInteger(retry) && retry > 0 ? retry : undefined), answer.headers);
}
