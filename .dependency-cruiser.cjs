// The layers of src/, checked by `npm run lint` (dependency-cruiser): each imports only the
// layers below it, nothing imports in a circle, and the sandbox (a program of its own) is
// imported by its command alone. README.md, "Development", draws the same picture.
//
// Bottom to top; a layer may import its own folder and any layer listed before it. Every folder
// of src/ is in one (test/layers.test.ts fails on one that is not); a folder inside another's
// (src/summary/run/) is a layer of its own, not its parent's.
const LAYERS = [
  ['core', ['src/core/']],
  ['catalog and store', ['src/catalog/', 'src/store/']],
  ['query', ['src/query/']],
  ['records', ['src/records/']],
  ['sink', ['src/sink/']],
  ['read and render', ['src/read/', 'src/render/']],
  ['reconcile', ['src/reconcile/']],
  ['summary', ['src/summary/']],
  ['books', ['src/books/']],
  ['report', ['src/report/']],
  ['sync', ['src/sync/']],
  ['doctor', ['src/doctor/']],
  ['tap', ['src/tap/']],
  ['serve', ['src/serve/']],
  ['cli', ['src/cli/']],
  // The ways summary runs (plain, split, loss, watch): its command's code, written with cli's output.
  ['summary runs', ['src/summary/run/']],
  ['commands', ['src/commands/']],
  ['main', ['src/main\\.ts$']],
];

const pattern = (dirs) => `^(${dirs.join('|')})`;

/** The folders of other layers inside this layer's (src/summary/run/ inside src/summary/). */
const nested = (dirs) =>
  LAYERS.flatMap(([, d]) => d).filter((o) => !dirs.includes(o) && dirs.some((d) => o.startsWith(d)));

/** A layer imports nothing above it. */
const upward = LAYERS.map(([name, dirs], i) => {
  const inside = nested(dirs);
  return {
    name: `no-upward-from-${name.replace(/ /g, '-')}`,
    comment: `${name} imports only the layers below it`,
    severity: 'error',
    from: inside.length > 0 ? { path: pattern(dirs), pathNot: pattern(inside) } : { path: pattern(dirs) },
    to: { path: pattern(LAYERS.slice(i + 1).flatMap(([, d]) => d)) },
  };
});
// The top one has nothing above it.
upward.pop();

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no module imports itself through others, type-only imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: 'commands-apart',
      comment: 'a command does not import another; what they share lives in a layer below',
      severity: 'error',
      from: { path: '^src/commands/([^/]+)\\.ts$' },
      to: { path: '^src/commands/', pathNot: '^src/commands/$1\\.ts$' },
    },
    {
      name: 'sandbox-is-its-own-program',
      comment: 'the sandbox shares no code with the client',
      severity: 'error',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/', pathNot: '^src/sandbox/' },
    },
    {
      name: 'sandbox-only-from-its-command',
      comment: 'only `posdata sandbox` loads the sandbox (and the tests, which are not cruised)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(sandbox/|commands/sandbox\\.ts$)' },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'every import resolves',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    // Type-only imports count: a circle of types is a circle a reader follows too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // ESM-only packages (conf, csv-stringify) resolve through their `import` condition.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
