/**
 * wasi:filesystem for the Node host. The hosted component keeps its data behind the
 * app:platform imports, so it is given no preopened directories: nothing can be opened.
 */
class Descriptor {}
class DirectoryEntryStream {}

export const filesystemImports = {
  'wasi:filesystem/preopens': { getDirectories: () => [] },
  'wasi:filesystem/types': {
    Descriptor,
    DirectoryEntryStream,
    filesystemErrorCode: () => undefined,
  },
};
