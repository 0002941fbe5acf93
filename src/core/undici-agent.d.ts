// undici's Agent by its own module: the package's entry (which has no exports map) also loads
// fetch, WebSocket, the caches and the mocks, about 3 MB more heap held for the whole run
// (src/core/http.ts). Its type is the one the entry declares.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
