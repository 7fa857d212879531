/**
 * The private header fields between the Node host and the guest (hop-local: the host adds or
 * strips each of them, a client never sees one nor can it supply one). Their formats are
 * described where each is parsed: host/relay/headers.ts, host/response-cache/directives.ts,
 * src/http/client-address.ts.
 */

/** Request: the client's address as the host determined it (after dropping any copy a client sent). */
export const CLIENT_ADDRESS_HEADER = 'x-app-client-address';

/** Response: the stream revisions a cacheable response was built from, for the host's response cache. */
export const CACHE_DEPS_HEADER = 'x-app-cache-deps';

/** Response: the guest asks the host to hold the client's stream and relay frames to it. */
export const RELAY_HEADER = 'x-app-relay';

/** Request (host → guest only): the relay's poll for frames after a position. */
export const RELAY_POLL_HEADER = 'x-app-relay-poll';

/** Request: the host's start-up probe, carrying the token the guest's environment names. */
export const STARTUP_PROBE_HEADER = 'x-app-startup-probe';

/** Request (host → guest only): the host's maintenance pass, carrying the token the guest's environment names. */
export const MAINTENANCE_HEADER = 'x-app-maintenance';

/**
 * The route of the host's maintenance pass. It answers only a POST carrying MAINTENANCE_HEADER
 * equal to the guest's maintenance token; anyone else gets the 404 of a path that does not exist.
 */
export const MAINTENANCE_PATH = '/api/internal/maintenance';
