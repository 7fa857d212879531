#!/bin/sh
# wasi-counter-auth: the release's one command. Without a command it starts the service (the
# Node host, with the same options and variables as `npm run host`); `wasi-counter-auth --help`
# lists them. It runs on the Node 24 inside this release (runtime/), whatever Node the machine
# has, from any directory: the release is found through this file's own path.
#
#   wasi-counter-auth [options]                   serve
#   wasi-counter-auth backup|restore|reset ...    the SQLite backup, restore and reset commands
#   wasi-counter-auth mail-drain ...              deliver mail queued under wasmtime serve
#   wasi-counter-auth serve-wasmtime ...          serve under wasmtime serve (needs wasmtime 49)
# Each command has --help.
set -eu
release=$(dirname "$(dirname "$(readlink -f "$0")")")
node="$release/runtime/bin/node"
case "${1-}" in
  backup | restore | reset | mail-drain | serve-wasmtime)
    command=$1
    shift
    WASI_COUNTER_AUTH_COMMAND="wasi-counter-auth $command"
    export WASI_COUNTER_AUTH_COMMAND
    exec "$node" "$release/app/scripts/$command.ts" "$@"
    ;;
esac
WASI_COUNTER_AUTH_COMMAND=wasi-counter-auth
export WASI_COUNTER_AUTH_COMMAND
exec "$node" "$release/app/host/main.ts" "$@"
