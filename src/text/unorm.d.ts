/** The subset of unorm 1.6.0 (plain CommonJS, no types of its own) the guest uses. */
declare module 'unorm' {
  const unorm: {
    nfc(text: string): string;
    nfd(text: string): string;
    nfkc(text: string): string;
    nfkd(text: string): string;
    /** true when loading it installed its `String.prototype.normalize` shim (the engine had none). */
    shimApplied: boolean;
  };
  export default unorm;
}
