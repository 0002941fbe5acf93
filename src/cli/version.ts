// posdata's version, from package.json (bundled into the build, so it is the package's own),
// and what `posdata --version` says about it: the version alone on the first line (for
// scripts), then what a bug report needs, as gh's does: the Node.js it runs on, the platform,
// and the protocols it speaks. Its own build entry (dist/version.js): bin/posdata.js answers
// --version with it before anything else is loaded.
import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;

/** The text of `posdata --version`, without the final newline. */
export function versionText(
  version: string = VERSION,
  node: string = process.version,
  platform = `${process.platform}-${process.arch}`,
): string {
  return [
    version,
    `Node.js ${node.replace(/^v/, '')} on ${platform}`,
    'Protocols: JSON-RPC (Odoo 16 to 19), JSON-2 (Odoo 19 and later)',
  ].join('\n');
}
