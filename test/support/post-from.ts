/**
 * A JSON POST from a chosen local address (fetch cannot pick one): on Linux all of 127.0.0.0/8
 * reaches loopback listeners, so 127.0.0.2, 127.0.0.3, … are distinct clients of one machine.
 * Over https when the URL says so, trusting `ca` (a test proxy's self-signed certificate).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface Answer {
  status: number;
  /** The error envelope's code, for a 4xx or 5xx answer. */
  code: string | undefined;
}

export function postFrom(localAddress: string, url: string, body: unknown, options: { ca?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const data = JSON.stringify(body);
  const request = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...options.headers };
    const req = request(url, { method: 'POST', localAddress, ca: options.ca, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const code = res.statusCode! >= 400 ? (JSON.parse(text) as { error: { code: string } }).error.code : undefined;
        resolve({ status: res.statusCode!, code });
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}
