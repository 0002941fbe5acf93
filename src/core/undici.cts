// The parts of undici posdata uses. Its index also loads fetch, WebSocket, the caches and
// the mocks: about 100 ms of CPU at every start, more than the rest of a command. A
// CommonJS module with literal require() calls, so that esbuild can bundle these parts
// into the data commands' bundle (scripts/bundle.mjs). undici is pinned to a minor version
// for these paths.
import type { Dispatcher, Agent as UndiciAgent, interceptors as UndiciInterceptors } from 'undici';

export const Agent = require('undici/lib/dispatcher/agent') as typeof UndiciAgent;
export const retryInterceptor = require('undici/lib/interceptor/retry') as typeof UndiciInterceptors.retry;
export const apiRequest = require('undici/lib/api/api-request') as (
  this: Dispatcher,
  opts: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;
