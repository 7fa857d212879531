/**
 * Benchmark target (n), the yardstick of a cached read: a bare `node:http` server answering every
 * request with the bytes a cached GET view answers (body and content type, read by bench/http.ts
 * from the service itself and handed over in BARE_VIEW_FILE). No routing, no store, no cache
 * lookup: what serving those bytes costs on Node at the least.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import * as v from 'valibot';

const ViewFileSchema = v.object({ body: v.string(), contentType: v.string() });
const file = process.env.BARE_VIEW_FILE;
if (file === undefined) throw new Error('BARE_VIEW_FILE names the view to serve');
const view = v.parse(ViewFileSchema, JSON.parse(readFileSync(file, 'utf8')));
const body = Buffer.from(view.body);
const headers = { 'content-type': view.contentType, 'content-length': String(body.length), 'cache-control': 'no-cache' };

const port = Number(process.env.PORT ?? 3000);
createServer((request, response) => {
  request.resume();
  response.writeHead(200, headers).end(body);
}).listen(port, '127.0.0.1', () => console.log(JSON.stringify({ code: 'host_listening', port })));
