/**
 * How guest code is bundled for componentize-js: one ESM file, no Node built-ins, the WIT imports
 * left as imports. The component build, the wasmtime test probes and the OAuth probes share it, so a probe is built
 * exactly as the component is.
 */
import { join } from 'node:path';
import { type BuildContext, type BuildOptions, build, context, type Plugin } from 'esbuild';

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
      // An incremental build (guestBundles) runs the plugin again: each build checks anew.
      build.onStart(() => {
        libraryBundled = false;
        replaced = false;
      });
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

export interface GuestBundleOptions {
  /**
   * Keep the statements labelled `GUEST_PROFILE:` (phase marks, src/platform/profile.ts); every
   * other bundle drops them, so production code does not carry them at all.
   */
  profile?: boolean;
}

function esbuildOptions(entry: string, outfile: string, options: GuestBundleOptions): BuildOptions {
  return {
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
  };
}

export type BundleGuest = (entry: string, outfile: string, options?: GuestBundleOptions) => Promise<void>;

export const bundleGuest: BundleGuest = async (entry, outfile, options = {}) => {
  await build(esbuildOptions(entry, outfile, options));
};

/**
 * The same bundles, rebuilt incrementally: esbuild keeps what it parsed, so a rebuild after a
 * change reads only what changed (`npm run dev`'s build process). One context per output file,
 * at most MAX_CONTEXTS (one per variant).
 */
export function guestBundles(): { bundle: BundleGuest; dispose(): Promise<void> } {
  const MAX_CONTEXTS = 3;
  const contexts = new Map<string, { key: string; context: Promise<BuildContext> }>();
  return {
    async bundle(entry, outfile, options = {}) {
      const key = JSON.stringify([entry, options]);
      let entryContext = contexts.get(outfile);
      if (entryContext?.key !== key) {
        if (entryContext) await (await entryContext.context).dispose();
        else if (contexts.size >= MAX_CONTEXTS) throw new Error(`more than ${MAX_CONTEXTS} guest bundles`);
        entryContext = { key, context: context(esbuildOptions(entry, outfile, options)) };
        contexts.set(outfile, entryContext);
      }
      await (await entryContext.context).rebuild();
    },
    async dispose() {
      for (const { context } of contexts.values()) await (await context).dispose();
      contexts.clear();
    },
  };
}
