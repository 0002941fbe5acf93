// Whether standard output gets colour, in one place: the program's IO (src/cli/io.ts) and the
// help written before the program is loaded (src/cli/prebuilt-help.ts) ask the same rule.

/** Colour on standard output: on a terminal unless NO_COLOR; FORCE_COLOR (not 0) anywhere. */
export function wantsColour(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  return !('NO_COLOR' in env && env.NO_COLOR !== '') && (env.FORCE_COLOR ? env.FORCE_COLOR !== '0' : isTTY);
}
