// posdata's version, from package.json (bundled into the build, so it is the package's own).
import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
