import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'static/**/*.test.ts', 'host/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
    // Guards against a test that hangs, not bounds on how fast anything is: on a 2-core machine
    // running other suites (load 17-24) host starts took 30 s and whole tests twice the old 30 s.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // End-to-end suites start real host processes on their own ports; keep files from starving each other on 2 cores.
    maxWorkers: 2,
  },
});
