import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // posdata/sandbox (package.json exports) is the sandbox's source in the tests (its
  // `posdata-source` condition, as in tsconfig.json), dist/ everywhere else.
  ssr: { resolve: { conditions: ['posdata-source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // test/odoo/ needs a real Odoo 17: `npm run test:odoo` (vitest.odoo.config.ts).
    exclude: ['test/odoo/**', 'node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    // Ceilings against a hang, not measures: a test waits for events (a line, a file, a port, a
    // child's exit), and on a loaded machine (two cores, several suites) a sound one took >60 s.
    testTimeout: 240_000,
    hookTimeout: 360_000,
    pool: 'forks',
    // Most of the suite's time is waiting (backoff, --timeout, a rate limit, a server that
    // answers late): two files at once even on two cores (vitest's default leaves one idle).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default'],
  },
});
