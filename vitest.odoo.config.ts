import { defineConfig } from 'vitest/config';

// `npm run test:odoo`: the tests against a real Odoo 17 (test/odoo/), run after `npm test`.
// One server is shared by the read-only files; files run one at a time so that timings
// and the server's own load stay those of one client.
export default defineConfig({
  // posdata/sandbox is the sandbox's source here too (vitest.config.ts says why).
  ssr: { resolve: { conditions: ['posdata-source'] } },
  test: {
    include: ['test/odoo/**/*.test.ts'],
    globalSetup: ['test/odoo/setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    reporters: ['default'],
  },
});
