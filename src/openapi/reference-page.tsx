/**
 * `/api/docs`: the OpenAPI document rendered as one static HTML page on the server (Hono JSX).
 * Self-written rather than an npm renderer: swagger-ui, Redoc and Scalar all inject inline
 * styles or scripts, which the page's CSP (`style-src 'self'`, no script at all) forbids.
 * Rendered once per component (at build time, by the snapshot of the module's top level).
 */
import type { FC } from 'hono/jsx';
import { Markdown } from './markdown.tsx';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});
const entries = (value: unknown): Array<[string, Json]> => Object.entries(obj(value)).map(([k, inner]) => [k, obj(inner)]);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const pretty = (value: unknown): string => JSON.stringify(value, null, 2);
const anchor = (operationId: string) => `op-${operationId}`;

const Schema: FC<{ value: unknown }> = ({ value }) => <pre class="schema">{pretty(value)}</pre>;

const Operation: FC<{ method: string; path: string; op: Json }> = ({ method, path, op }) => (
  <article class="op" id={anchor(text(op['operationId']))}>
    <h3>
      <span class={`method method-${method}`}>{method.toUpperCase()}</span> <code>{path}</code>
    </h3>
    <p class="summary">{text(op['summary'])}</p>
    {op['description'] ? <Markdown text={text(op['description'])} /> : null}
    {Array.isArray(op['security']) ? <p class="note">Security: {(op['security'] as Json[]).map((s) => Object.keys(s)[0] ?? 'none').join(' or ')}</p> : null}
    {Array.isArray(op['parameters']) ? (
      <table>
        <thead>
          <tr>
            <th>parameter</th>
            <th>in</th>
            <th>required</th>
            <th>schema</th>
            <th>description</th>
          </tr>
        </thead>
        <tbody>
          {(op['parameters'] as Json[]).map((p) => (
            <tr>
              <td>
                <code>{text(p['name'])}</code>
              </td>
              <td>{text(p['in'])}</td>
              <td>{p['required'] ? 'yes' : 'no'}</td>
              <td>
                <code>{JSON.stringify(p['schema'])}</code>
              </td>
              <td>{text(p['description'])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    ) : null}
    {op['requestBody'] ? (
      <section>
        <h4>Request body</h4>
        {entries(obj(op['requestBody'])['content']).map(([type, media]) => (
          <div>
            <code>{type}</code>
            <Schema value={media['schema']} />
          </div>
        ))}
      </section>
    ) : null}
    <h4>Responses</h4>
    <dl class="responses">
      {entries(op['responses']).map(([status, response]) => (
        <>
          <dt class={`status status-${status[0]}xx`}>{status}</dt>
          <dd>
            <Markdown text={text(response['description'])} />
            {response['headers'] ? <p class="note">Headers: {Object.keys(obj(response['headers'])).join(', ')}</p> : null}
            {entries(response['content']).map(([type, media]) => (
              <details>
                <summary>
                  <code>{type}</code>
                </summary>
                <Schema value={media['schema']} />
                {media['example'] !== undefined ? <Schema value={media['example']} /> : null}
              </details>
            ))}
            {response['links'] ? (
              <p class="note">
                Links:{' '}
                {entries(response['links']).map(([name, link]) => (
                  <a href={`#${anchor(text(link['operationId']))}`}>{name} </a>
                ))}
              </p>
            ) : null}
          </dd>
        </>
      ))}
    </dl>
  </article>
);

/** The whole page for `document`; `stylesheet` is the /pkg URL of static/api-docs.css. */
export function referencePage(document: Json, stylesheet: string): string {
  const info = obj(document['info']);
  const byTag = new Map<string, Array<{ method: string; path: string; op: Json }>>();
  for (const [path, item] of entries(document['paths'])) {
    for (const [method, op] of Object.entries(item).map(([m, o]) => [m, obj(o)] as const)) {
      const tag = text((op['tags'] as string[] | undefined)?.[0]);
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }
  const page = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${text(info['title'])} API ${text(info['version'])}`}</title>
        <link rel="stylesheet" href={stylesheet} />
      </head>
      <body>
        <header>
          <h1>
            {text(info['title'])} API <small>{text(info['version'])}</small>
          </h1>
          <p>
            OpenAPI {text(document['openapi'])}: <a href="/api/openapi.json">/api/openapi.json</a>
          </p>
          <Markdown text={text(info['description'])} class="intro markdown" />
          <nav>
            {[...byTag].map(([tag, ops]) => (
              <p>
                <strong>{tag}</strong>:{' '}
                {ops.map(({ method, path, op }) => (
                  <a href={`#${anchor(text(op['operationId']))}`}>{`${method.toUpperCase()} ${path}`} </a>
                ))}
              </p>
            ))}
          </nav>
        </header>
        <main>
          {[...byTag].map(([tag, ops]) => (
            <section>
              <h2>{tag}</h2>
              {ops.map((o) => (
                <Operation {...o} />
              ))}
            </section>
          ))}
          <section>
            <h2>Schemas</h2>
            {entries(obj(document['components'])['schemas']).map(([name, schema]) => (
              <details id={`schema-${name}`}>
                <summary>{name}</summary>
                <Schema value={schema} />
              </details>
            ))}
          </section>
        </main>
      </body>
    </html>
  );
  return `<!DOCTYPE html>${page.toString()}`;
}
