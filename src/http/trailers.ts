/**
 * Response trailers. The Fetch `Response` has none, so an adapter that needs them (gRPC's
 * `grpc-status`) registers a promise of them here; the wasi:http writer sends them when the
 * body ends.
 */
const pending = new WeakMap<Response, Promise<Headers>>();

export function withTrailers(response: Response, trailers: Promise<Headers>): Response {
  pending.set(response, trailers);
  return response;
}

export function trailersOf(response: Response): Promise<Headers> | undefined {
  return pending.get(response);
}
