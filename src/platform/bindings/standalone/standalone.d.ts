/// <reference path="./interfaces/app-platform-password-hashing.d.ts" />
/// <reference path="./interfaces/app-platform-types.d.ts" />
/// <reference path="./interfaces/wasi-cli-environment.d.ts" />
/// <reference path="./interfaces/wasi-cli-stderr.d.ts" />
/// <reference path="./interfaces/wasi-cli-stdin.d.ts" />
/// <reference path="./interfaces/wasi-cli-stdout.d.ts" />
/// <reference path="./interfaces/wasi-clocks-monotonic-clock.d.ts" />
/// <reference path="./interfaces/wasi-clocks-wall-clock.d.ts" />
/// <reference path="./interfaces/wasi-filesystem-preopens.d.ts" />
/// <reference path="./interfaces/wasi-filesystem-types.d.ts" />
/// <reference path="./interfaces/wasi-http-incoming-handler.d.ts" />
/// <reference path="./interfaces/wasi-http-outgoing-handler.d.ts" />
/// <reference path="./interfaces/wasi-http-types.d.ts" />
/// <reference path="./interfaces/wasi-io-error.d.ts" />
/// <reference path="./interfaces/wasi-io-poll.d.ts" />
/// <reference path="./interfaces/wasi-io-streams.d.ts" />
/// <reference path="./interfaces/wasi-random-random.d.ts" />
declare module 'app:platform/standalone@0.1.0' {
  export type * as AppPlatformPasswordHashing010 from 'app:platform/password-hashing@0.1.0'; // import app:platform/password-hashing@0.1.0
  export type * as AppPlatformTypes010 from 'app:platform/types@0.1.0'; // import app:platform/types@0.1.0
  export type * as WasiCliEnvironment0212 from 'wasi:cli/environment@0.2.12'; // import wasi:cli/environment@0.2.12
  export type * as WasiCliStderr0212 from 'wasi:cli/stderr@0.2.12'; // import wasi:cli/stderr@0.2.12
  export type * as WasiCliStdin0212 from 'wasi:cli/stdin@0.2.12'; // import wasi:cli/stdin@0.2.12
  export type * as WasiCliStdout0212 from 'wasi:cli/stdout@0.2.12'; // import wasi:cli/stdout@0.2.12
  export type * as WasiClocksMonotonicClock0212 from 'wasi:clocks/monotonic-clock@0.2.12'; // import wasi:clocks/monotonic-clock@0.2.12
  export type * as WasiClocksWallClock0212 from 'wasi:clocks/wall-clock@0.2.12'; // import wasi:clocks/wall-clock@0.2.12
  export type * as WasiFilesystemPreopens0212 from 'wasi:filesystem/preopens@0.2.12'; // import wasi:filesystem/preopens@0.2.12
  export type * as WasiFilesystemTypes0212 from 'wasi:filesystem/types@0.2.12'; // import wasi:filesystem/types@0.2.12
  export type * as WasiHttpOutgoingHandler0212 from 'wasi:http/outgoing-handler@0.2.12'; // import wasi:http/outgoing-handler@0.2.12
  export type * as WasiHttpTypes0212 from 'wasi:http/types@0.2.12'; // import wasi:http/types@0.2.12
  export type * as WasiIoError0212 from 'wasi:io/error@0.2.12'; // import wasi:io/error@0.2.12
  export type * as WasiIoPoll0212 from 'wasi:io/poll@0.2.12'; // import wasi:io/poll@0.2.12
  export type * as WasiIoStreams0212 from 'wasi:io/streams@0.2.12'; // import wasi:io/streams@0.2.12
  export type * as WasiRandomRandom0212 from 'wasi:random/random@0.2.12'; // import wasi:random/random@0.2.12
  export * as incomingHandler from 'wasi:http/incoming-handler@0.2.12'; // export wasi:http/incoming-handler@0.2.12
}
