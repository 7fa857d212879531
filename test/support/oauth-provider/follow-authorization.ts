/**
 * Plays the browser at the local provider: opens the authorization URL and returns what the
 * provider sends back to the redirect URI (query redirect, or the fields of a form_post page).
 */
export interface ProviderCallback {
  /** where the provider sends the browser (the redirect URI) */
  target: string;
  method: 'GET' | 'POST';
  params: Record<string, string>;
}

export async function followAuthorization(authorizationUrl: string): Promise<ProviderCallback> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  if (response.status === 302) {
    const location = new URL(response.headers.get('location')!);
    const params = Object.fromEntries(location.searchParams);
    location.search = '';
    return { target: location.href, method: 'GET', params };
  }
  const html = await response.text();
  const form = /<form method="post" action="([^"]+)">/.exec(html);
  if (response.status !== 200 || !form) throw new Error(`authorization failed: ${response.status} ${html.slice(0, 200)}`);
  const decodeEntities = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  const params = Object.fromEntries([...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, decodeEntities(m[2]!)]));
  return { target: decodeEntities(form[1]!), method: 'POST', params };
}
