/**
 * How guest code is bundled for componentize-js: one ESM file, no Node built-ins, the WIT imports
 * left as imports. The component build, the wasmtime test probes and the OAuth probes share it, so a probe is built
 * exactly as the component is.
 */
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * @simplewebauthn/server reaches WebCrypto through one module, `getWebCrypto.js`; inside the
 * component its asymmetric `subtle` calls trap, so the guest gets src/auth/passkeys/guest-web-crypto.ts
 * in its place (pure-JS signatures, see there). The build fails if the library no longer imports
 * that module while being bundled, so an upgrade cannot silently bring the trapping path back.
 */
function guestWebCrypto(): Plugin {
  const replacement = join(import.meta.dirname, '..', 'src', 'auth', 'passkeys', 'guest-web-crypto.ts');
  return {
    name: 'guest-web-crypto',
    setup(build) {
      let libraryBundled = false;
      let replaced = false;
      build.onResolve({ filter: /\/getWebCrypto\.js$/ }, (args) => {
        if (!/@simplewebauthn[\\/]server[\\/]/.test(args.importer)) return undefined;
        replaced = true;
        return { path: replacement };
      });
      build.onLoad({ filter: /@simplewebauthn[\\/]server[\\/].*\.js$/ }, () => {
        libraryBundled = true;
        return undefined;
      });
      build.onEnd((result) => {
        if (libraryBundled && !replaced && result.errors.length === 0)
          result.errors.push({
            id: '',
            pluginName: 'guest-web-crypto',
            text: '@simplewebauthn/server no longer imports getWebCrypto.js: its signatures would trap in the component',
            location: null,
            notes: [],
            detail: undefined,
          });
      });
    },
  };
}

/**
 * `profile`: keep the statements labelled `GUEST_PROFILE:` (phase marks, src/platform/profile.ts);
 * every other bundle drops them, so production code does not carry them at all.
 */
export async function bundleGuest(entry: string, outfile: string, options: { profile?: boolean } = {}): Promise<void> {
  await build({
    dropLabels: options.profile ? [] : ['GUEST_PROFILE'],
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    external: ['wasi:*', 'app:*'],
    outfile,
    minify: false,
    jsx: 'automatic',
    jsxImportSource: 'hono/jsx',
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [guestWebCrypto()],
  });
}
