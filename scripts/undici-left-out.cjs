// What undici's client.js gets for `require('./client-h2.js')`, and client-h1.js for
// `require('../web/fetch/body.js')`, in posdata's bundle (scripts/bundle.mjs): neither module.
// The HTTP/2 client is used only on a connection that negotiated h2, which undici offers only
// with allowH2 (posdata's Agent does not set it: HTTP/1.1 only); fetch's body only for a FormData
// body (posdata sends JSON text). Bundled, they were 54 KB of the HTTP client's chunk (its
// HTTP/2 client and fetch's body, webidl, FormData and URL helpers under it), and the HTTP/2
// client's first line loaded node:http2 (with tls and http2's core) into every data command's
// start, before the first request. Reached anyway, this says so rather than misbehave.
function leftOut() {
  throw new Error(
    "posdata's bundle leaves out undici's HTTP/2 client and FormData bodies (scripts/undici-left-out.cjs)",
  );
}
leftOut.extractBody = leftOut;
module.exports = leftOut;
