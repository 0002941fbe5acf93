// "Did you mean": the one candidate a mistyped value is a slip away from (git's and
// commander's own suggestion for commands and flags, for values too).

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The candidate closest to `typed` (case aside) within a slip (1 edit for short words, 2 from
 * 4 letters), when it is the only one that close; undefined otherwise.
 */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  const t = typed.toLowerCase();
  const limit = t.length >= 4 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = limit + 1;
  let ties = 0;
  for (const c of candidates) {
    const n = editDistance(t, c.toLowerCase());
    if (n < bestDistance) {
      best = c;
      bestDistance = n;
      ties = 0;
    } else if (n === bestDistance) ties++;
  }
  return best !== undefined && ties === 0 ? best : undefined;
}
