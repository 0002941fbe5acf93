import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/odoo/ needs a real Odoo 17: `npm run test:odoo` (vitest.odoo.config.ts).
    exclude: ['test/odoo/**', 'node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
