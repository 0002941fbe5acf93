// The parts of undici posdata uses. Its index also loads fetch, WebSocket, the caches and
// the mocks: about 100 ms of CPU at every start, more than the rest of a command. Imported
// by path (declared in undici-parts.d.ts), so that esbuild bundles these parts into the data
// commands' bundle (scripts/bundle.mjs). undici is pinned to a minor version for these paths.
import type { Agent as UndiciAgent, interceptors as UndiciInterceptors } from 'undici';
import agent from 'undici/lib/dispatcher/agent.js';
import retry from 'undici/lib/interceptor/retry.js';

export const Agent = agent as typeof UndiciAgent;
export const retryInterceptor = retry as typeof UndiciInterceptors.retry;
