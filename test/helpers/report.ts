// The figures of a `posdata report` HTML file, read back from its JSON block.

/** The report's JSON block (id="posdata-report"), parsed. */
export function reportData(html: string): Record<string, unknown> {
  const m = /<script type="application\/json" id="posdata-report">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no JSON block in the report');
  return JSON.parse(m[1] as string) as Record<string, unknown>;
}

/** What a person reads of a report page: all its text, and the lists under a mark and the closings as rows of cells. */
export interface ReadPage {
  text: string;
  /** Every `table.orders` and `table.cash`: rows of cell texts, the header row first. */
  tables: string[][][];
  /** The figures' tables (`table.glance`: the glance, beside the products, guests; `table.loss`), each by its class. */
  figures: { kind: string; rows: string[][] }[];
}

/**
 * A report page as headless Chromium (Debian's) renders it offline: the page's text, its
 * title, the charts' labels and every tooltip (title attributes), and its order tables.
 */
export async function readPage(file: string, chromiumPath = '/usr/bin/chromium'): Promise<ReadPage> {
  const { chromium } = await import('playwright-core');
  const { pathToFileURL } = await import('node:url');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await (await browser.newContext({ offline: true })).newPage();
    await page.goto(pathToFileURL(file).href);
    return await page.evaluate(() => {
      // Run in the page; the tests are type-checked without the DOM's globals.
      const doc = (globalThis as unknown as { document: PageDocument }).document;
      const all = (s: string) => [...doc.querySelectorAll(s)];
      const titles = all('[title]').map((e) => e.getAttribute('title') ?? '');
      const svgText = all('svg text').map((e) => e.textContent ?? '');
      const rowsOf = (t: PageNode) =>
        [...t.querySelectorAll('tr')].map((r) => [...r.querySelectorAll('th, td')].map((c) => c.innerText));
      const tables = all('table.orders, table.cash').map(rowsOf);
      const figures = all('table.glance, table.loss').map((t) => ({
        kind: t.getAttribute('class') ?? '',
        rows: rowsOf(t),
      }));
      return { text: [doc.title, doc.body.innerText, ...titles, ...svgText].join('\n'), tables, figures };
    });
  } finally {
    await browser.close();
  }
}

/** The part of the DOM that readPage reads. */
interface PageNode {
  innerText: string;
  textContent: string | null;
  getAttribute(n: string): string | null;
  querySelectorAll(s: string): Iterable<PageNode>;
}
interface PageDocument {
  title: string;
  body: PageNode;
  querySelectorAll(s: string): Iterable<PageNode>;
}

/** A column of a table as readPage gives it, by its header. */
export function column(table: string[][], header: string): string[] {
  const at = table[0]?.indexOf(header) ?? -1;
  return at < 0 ? [] : table.slice(1).map((r) => r[at] ?? '');
}

/** The words that show a value went wrong on its way to the page. */
export const UNREADABLE = /\b(Invalid|NaN|undefined|null)\b|\[object/;
