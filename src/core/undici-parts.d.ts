// undici's files imported by path (src/core/undici.ts): CommonJS, typed there.
declare module 'undici/lib/dispatcher/agent.js' {
  const value: unknown;
  export default value;
}
declare module 'undici/lib/interceptor/retry.js' {
  const value: unknown;
  export default value;
}
