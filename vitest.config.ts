import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'static/**/*.test.ts', 'host/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // End-to-end suites start real host processes on their own ports; keep files from starving each other on 2 cores.
    maxWorkers: 2,
  },
});
