// What the build's second step (scripts/generated.mjs) makes from the commands' declarations:
// the man pages and completion's table of flags. Its own build entry (dist/generated.js).
export { loadListed } from './command.js';
export { completionTable } from './completion.js';
export { manPages } from './manpage.js';
