// world app:platform/hosted@0.1.0
export type * as AppPlatformErasure010 from './interfaces/app-platform-erasure.js'; // import app:platform/erasure@0.1.0
export type * as AppPlatformEventStore010 from './interfaces/app-platform-event-store.js'; // import app:platform/event-store@0.1.0
export type * as AppPlatformKeyValue010 from './interfaces/app-platform-key-value.js'; // import app:platform/key-value@0.1.0
export type * as AppPlatformMail010 from './interfaces/app-platform-mail.js'; // import app:platform/mail@0.1.0
export type * as AppPlatformPasswordHashing010 from './interfaces/app-platform-password-hashing.js'; // import app:platform/password-hashing@0.1.0
export type * as AppPlatformProjectionStore010 from './interfaces/app-platform-projection-store.js'; // import app:platform/projection-store@0.1.0
export type * as AppPlatformPubsub010 from './interfaces/app-platform-pubsub.js'; // import app:platform/pubsub@0.1.0
export type * as AppPlatformStreamLease010 from './interfaces/app-platform-stream-lease.js'; // import app:platform/stream-lease@0.1.0
export type * as AppPlatformTypes010 from './interfaces/app-platform-types.js'; // import app:platform/types@0.1.0
export type * as WasiCliEnvironment0212 from './interfaces/wasi-cli-environment.js'; // import wasi:cli/environment@0.2.12
export type * as WasiCliStderr0212 from './interfaces/wasi-cli-stderr.js'; // import wasi:cli/stderr@0.2.12
export type * as WasiCliStdin0212 from './interfaces/wasi-cli-stdin.js'; // import wasi:cli/stdin@0.2.12
export type * as WasiCliStdout0212 from './interfaces/wasi-cli-stdout.js'; // import wasi:cli/stdout@0.2.12
export type * as WasiClocksMonotonicClock0212 from './interfaces/wasi-clocks-monotonic-clock.js'; // import wasi:clocks/monotonic-clock@0.2.12
export type * as WasiClocksWallClock0212 from './interfaces/wasi-clocks-wall-clock.js'; // import wasi:clocks/wall-clock@0.2.12
export type * as WasiHttpOutgoingHandler0212 from './interfaces/wasi-http-outgoing-handler.js'; // import wasi:http/outgoing-handler@0.2.12
export type * as WasiHttpTypes0212 from './interfaces/wasi-http-types.js'; // import wasi:http/types@0.2.12
export type * as WasiIoError0212 from './interfaces/wasi-io-error.js'; // import wasi:io/error@0.2.12
export type * as WasiIoPoll0212 from './interfaces/wasi-io-poll.js'; // import wasi:io/poll@0.2.12
export type * as WasiIoStreams0212 from './interfaces/wasi-io-streams.js'; // import wasi:io/streams@0.2.12
export type * as WasiRandomRandom0212 from './interfaces/wasi-random-random.js'; // import wasi:random/random@0.2.12
export * as incomingHandler from './interfaces/wasi-http-incoming-handler.js'; // export wasi:http/incoming-handler@0.2.12
