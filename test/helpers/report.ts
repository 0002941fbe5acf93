// The figures of a `posdata report` HTML file, read back from its JSON block.

/** The report's JSON block (id="posdata-report"), parsed. */
export function reportData(html: string): Record<string, unknown> {
  const m = /<script type="application\/json" id="posdata-report">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no JSON block in the report');
  return JSON.parse(m[1] as string) as Record<string, unknown>;
}
