/// <reference path="./interfaces/app-platform-erasure.d.ts" />
/// <reference path="./interfaces/app-platform-event-store.d.ts" />
/// <reference path="./interfaces/app-platform-key-value.d.ts" />
/// <reference path="./interfaces/app-platform-mail.d.ts" />
/// <reference path="./interfaces/app-platform-password-hashing.d.ts" />
/// <reference path="./interfaces/app-platform-projection-store.d.ts" />
/// <reference path="./interfaces/app-platform-pubsub.d.ts" />
/// <reference path="./interfaces/app-platform-stream-lease.d.ts" />
/// <reference path="./interfaces/app-platform-types.d.ts" />
/// <reference path="./interfaces/wasi-cli-environment.d.ts" />
/// <reference path="./interfaces/wasi-cli-stderr.d.ts" />
/// <reference path="./interfaces/wasi-cli-stdin.d.ts" />
/// <reference path="./interfaces/wasi-cli-stdout.d.ts" />
/// <reference path="./interfaces/wasi-clocks-monotonic-clock.d.ts" />
/// <reference path="./interfaces/wasi-clocks-wall-clock.d.ts" />
/// <reference path="./interfaces/wasi-http-incoming-handler.d.ts" />
/// <reference path="./interfaces/wasi-http-outgoing-handler.d.ts" />
/// <reference path="./interfaces/wasi-http-types.d.ts" />
/// <reference path="./interfaces/wasi-io-error.d.ts" />
/// <reference path="./interfaces/wasi-io-poll.d.ts" />
/// <reference path="./interfaces/wasi-io-streams.d.ts" />
/// <reference path="./interfaces/wasi-random-random.d.ts" />
declare module 'app:platform/hosted@0.1.0' {
  export type * as AppPlatformErasure010 from 'app:platform/erasure@0.1.0'; // import app:platform/erasure@0.1.0
  export type * as AppPlatformEventStore010 from 'app:platform/event-store@0.1.0'; // import app:platform/event-store@0.1.0
  export type * as AppPlatformKeyValue010 from 'app:platform/key-value@0.1.0'; // import app:platform/key-value@0.1.0
  export type * as AppPlatformMail010 from 'app:platform/mail@0.1.0'; // import app:platform/mail@0.1.0
  export type * as AppPlatformPasswordHashing010 from 'app:platform/password-hashing@0.1.0'; // import app:platform/password-hashing@0.1.0
  export type * as AppPlatformProjectionStore010 from 'app:platform/projection-store@0.1.0'; // import app:platform/projection-store@0.1.0
  export type * as AppPlatformPubsub010 from 'app:platform/pubsub@0.1.0'; // import app:platform/pubsub@0.1.0
  export type * as AppPlatformStreamLease010 from 'app:platform/stream-lease@0.1.0'; // import app:platform/stream-lease@0.1.0
  export type * as AppPlatformTypes010 from 'app:platform/types@0.1.0'; // import app:platform/types@0.1.0
  export type * as WasiCliEnvironment0212 from 'wasi:cli/environment@0.2.12'; // import wasi:cli/environment@0.2.12
  export type * as WasiCliStderr0212 from 'wasi:cli/stderr@0.2.12'; // import wasi:cli/stderr@0.2.12
  export type * as WasiCliStdin0212 from 'wasi:cli/stdin@0.2.12'; // import wasi:cli/stdin@0.2.12
  export type * as WasiCliStdout0212 from 'wasi:cli/stdout@0.2.12'; // import wasi:cli/stdout@0.2.12
  export type * as WasiClocksMonotonicClock0212 from 'wasi:clocks/monotonic-clock@0.2.12'; // import wasi:clocks/monotonic-clock@0.2.12
  export type * as WasiClocksWallClock0212 from 'wasi:clocks/wall-clock@0.2.12'; // import wasi:clocks/wall-clock@0.2.12
  export type * as WasiHttpOutgoingHandler0212 from 'wasi:http/outgoing-handler@0.2.12'; // import wasi:http/outgoing-handler@0.2.12
  export type * as WasiHttpTypes0212 from 'wasi:http/types@0.2.12'; // import wasi:http/types@0.2.12
  export type * as WasiIoError0212 from 'wasi:io/error@0.2.12'; // import wasi:io/error@0.2.12
  export type * as WasiIoPoll0212 from 'wasi:io/poll@0.2.12'; // import wasi:io/poll@0.2.12
  export type * as WasiIoStreams0212 from 'wasi:io/streams@0.2.12'; // import wasi:io/streams@0.2.12
  export type * as WasiRandomRandom0212 from 'wasi:random/random@0.2.12'; // import wasi:random/random@0.2.12
  export * as incomingHandler from 'wasi:http/incoming-handler@0.2.12'; // export wasi:http/incoming-handler@0.2.12
}
