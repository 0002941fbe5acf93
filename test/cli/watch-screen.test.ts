// The block `--watch` redraws in place, cut to the terminal's height (a taller one would be drawn
// again under itself at each refresh, the cursor unable to go back over what scrolled off).
import { describe, expect, it } from 'vitest';
import { countLines, fitHeight } from '../../src/cli/watch.js';

const block = (n: number) => Array.from({ length: n }, (_, i) => `row ${i + 1}\n`).join('');

describe('fitHeight', () => {
  it('leaves a block that fits (with a row for the cursor and one above) as it is, or where the height is not known', () => {
    expect(fitHeight(block(8), 80, 10)).toBe(block(8));
    expect(fitHeight(block(50), 80, undefined)).toBe(block(50));
  });

  it('keeps the first lines and says how many more there are, in the rows the terminal has', () => {
    expect(fitHeight(block(9), 80, 10)).not.toBe(block(9));
    const got = fitHeight(block(30), 80, 10);
    expect(got.split('\n').slice(0, 7)).toEqual(block(7).split('\n').slice(0, 7));
    expect(got).toMatch(
      /\nrow 7\n… 23 more lines below: the terminal has 10 rows; a taller one shows them all\n$/,
    );
    expect(countLines(got, 80)).toBe(8);
  });

  it('counts wrapped lines as the rows they take, and cuts the note to the width', () => {
    const wide = `${'x'.repeat(100)}\n`.repeat(6);
    const got = fitHeight(wide, 40, 8);
    // Each line takes 3 rows of 40: one fits in the 5 rows left.
    expect(got.split('\n').filter((l) => l.startsWith('x'))).toHaveLength(1);
    expect(countLines(got, 40)).toBeLessThanOrEqual(6);
    expect(got.trimEnd().split('\n').at(-1)).toHaveLength(40);
  });
});
