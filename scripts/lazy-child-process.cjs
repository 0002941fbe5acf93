// What commander gets for `require('node:child_process')` in posdata's bundle (scripts/bundle.mjs):
// the module itself, loaded when first used. commander needs it only to run a subcommand kept in
// a separate executable, which posdata has none of; loaded eagerly it brings net and the stream
// modules under it into every start, `--help` included.
let childProcess;
module.exports = new Proxy(
  {},
  {
    get(_, key) {
      childProcess ??= require('node:child_process');
      return childProcess[key];
    },
  },
);
