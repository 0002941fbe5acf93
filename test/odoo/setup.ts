// Global setup of the real-Odoo stage: one real Odoo 17 that the read-only test files share
// (they take it with inject('odoo')), and the suite-wide secret check of the main suite.
import type { TestProject } from 'vitest/node';
import mainSetup from '../global-setup.js';
import { type RealOdoo, startRealOdoo } from '../helpers/odoo17.js';

declare module 'vitest' {
  export interface ProvidedContext {
    odoo: RealOdoo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const teardownMain = mainSetup();
  const odoo = await startRealOdoo();
  const { stop, ...shared } = odoo;
  project.provide('odoo', shared);
  return async () => {
    await stop();
    teardownMain();
  };
}
