// The shells posdata completes, apart from the completion itself (src/cli/completion.ts and its
// package), which only a Tab or `posdata completion SHELL` loads.
export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];
