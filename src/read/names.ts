// Many2one values read as bare ids, their names read once per value.
//
// search_read writes every many2one as [id, display_name]: on 200k sales the register's and
// the session's names are a fifth of the bytes, and a quarter of the time to parse a page,
// for a few dozen distinct values. With read()'s load='' Odoo sends the bare id; the name
// of each value is read once, as soon as a page that brings a new one arrives, from one of
// the records that hold it (a search_read of those records with the many2one fields, the
// same model, rights and context as the export), so the name is exactly the one the page
// would have carried (Odoo reads it as superuser) and the read can be refused only where
// the export itself is. Before a page is used its ids are replaced by the shared
// [id, name] pairs: the records look as they always did to everything after.
//
// A consumer that looks the names up itself (the CSV writer: ManyToOneNames.leftBare) has the
// page's ids left as they came: putting the pair into every record's field (three fields of
// 200k sales) cost ~55 ms of a 2 s export's CPU, for values it then reads back.
//
// Where values hardly repeat (the order of each line, the order of each payment), the
// names would cost a second request nearly as large as the page: the first page decides,
// and any later page that brings more than one new value in ten turns load='' off again.
import type { OdooClient, PageQuery } from '../core/client.js';
import type { OdooRecord } from '../core/types.js';

type Pair = [number, string];

/** New values over records above which the names are left in the pages. */
const DENSE = 0.1;
/** Pages smaller than this say little about how values repeat. */
const SAMPLE = 100;
/** Names kept at most: past that, the values do not repeat enough to be worth keeping. */
const KEEP = 20_000;

/** A page's bare ids and their names, for a consumer that looks them up itself. */
export interface BareNames {
  /** The [id, name] of each field's bare values: every bare value a page holds is in. */
  readonly pairs: ReadonlyMap<string, ReadonlyMap<number, Pair>>;
  /** Puts the pairs into this record's bare fields, for code that reads the record as it always was. */
  name(record: OdooRecord): void;
}

export class ManyToOneNames implements BareNames {
  private readonly known = new Map<string, Map<number, Pair>>();
  /** Values whose name is being read, by field, with that read. */
  private readonly reading = new Map<string, Map<number, Promise<void>>>();
  private bare = false;
  private decided = false;
  /** Names stay in the pages for good: no more learning from them. */
  private off = false;
  private kept = 0;
  /**
   * A value read bare whose read did not bring its name (its holder changed or was deleted
   * meanwhile, or the read failed): from then on fill() puts the names in, as it does
   * without `leftBare`, and reads again what is still unknown.
   */
  private lost = false;

  constructor(
    private readonly client: OdooClient,
    private readonly model: string,
    private readonly fields: string[],
    /** The consumer looks bare ids up in `pairs` itself: fill() leaves them bare where it can. */
    readonly leftBare = false,
  ) {
    for (const f of fields) {
      this.known.set(f, new Map());
      this.reading.set(f, new Map());
    }
  }

  /** read()'s load for the next page request. */
  readonly load = (): string | undefined => (this.bare ? '' : undefined);

  /** A page has arrived: keep the names it carries, start reading the ones it lacks. */
  readonly arrived = (records: OdooRecord[]): void => {
    const holders = new Set<number>();
    const waiting: [string, number][] = [];
    let fresh = 0;
    for (const f of this.fields) {
      const known = this.known.get(f) as Map<number, Pair>;
      const reading = this.reading.get(f) as Map<number, Promise<void>>;
      // One holder per value.
      const asked = new Set<number>();
      let last: unknown;
      for (let i = 0; i < records.length; i++) {
        const r = records[i] as OdooRecord;
        const v = r[f];
        // Values come in runs (a session's sales follow each other): look each run up once.
        if (v === last || v === false) continue;
        last = v;
        if (typeof v === 'number') {
          if (known.has(v) || reading.has(v) || asked.has(v)) continue;
          asked.add(v);
          holders.add(r.id);
          waiting.push([f, v]);
          fresh++;
        } else if (!this.off && Array.isArray(v) && !known.has(v[0] as number)) {
          known.set(v[0] as number, v as Pair);
          fresh++;
        }
      }
    }
    this.kept += fresh;
    if (records.length >= SAMPLE && !this.off) {
      const dense = fresh > records.length * DENSE;
      if (!this.decided) this.bare = !dense;
      if (dense || this.kept > KEEP) {
        // Pages already asked bare still get their names; nothing more is kept.
        this.bare = false;
        this.off = true;
      }
      this.decided = true;
    }
    if (holders.size === 0) return;
    const read = this.readFrom([...holders], waiting);
    for (const [f, v] of waiting) (this.reading.get(f) as Map<number, Promise<void>>).set(v, read);
  };

  get pairs(): ReadonlyMap<string, ReadonlyMap<number, Pair>> {
    return this.known;
  }

  name(record: OdooRecord): void {
    this.resolve([record]);
  }

  /**
   * Replaces the page's bare ids by [id, name], once their names are in. With `leftBare`, where
   * every value read bare so far is known once the reads under way are in, the page is left
   * as it came: arrived() saw each of its values, known or read since.
   */
  async fill(records: OdooRecord[]): Promise<void> {
    if (this.leftBare && !this.lost) {
      const reads = new Set<Promise<void>>();
      for (const reading of this.reading.values()) for (const read of reading.values()) reads.add(read);
      if (reads.size > 0) await Promise.all(reads);
      if (!this.lost) return;
    }
    const unknown = this.resolve(records);
    if (unknown.size === 0) return;
    const reads = new Set<Promise<void>>();
    for (const r of unknown) {
      for (const f of this.fields) {
        const read = typeof r[f] === 'number' ? this.reading.get(f)?.get(r[f] as number) : undefined;
        if (read) reads.add(read);
      }
    }
    await Promise.all(reads);
    const left = this.resolve([...unknown]);
    if (left.size > 0) await this.reread(left);
  }

  /**
   * Puts the known names in; the records still holding a bare id whose name is not known
   * (its holders deleted or changed before they were read, or that read failed).
   */
  private resolve(records: OdooRecord[]): Set<OdooRecord> {
    const left = new Set<OdooRecord>();
    for (const f of this.fields) {
      const known = this.known.get(f) as Map<number, Pair>;
      let last: unknown;
      let pair: Pair | undefined;
      for (let i = 0; i < records.length; i++) {
        const r = records[i] as OdooRecord;
        const v = r[f];
        if (typeof v !== 'number') continue;
        if (v !== last) {
          last = v;
          pair = known.get(v);
        }
        if (pair) r[f] = pair;
        else left.add(r);
      }
    }
    return left;
  }

  /**
   * The page's own records read again with the names in them: what a plain page read would
   * give now, with the rights of the export itself. A record that holds another value by
   * now takes it; one deleted since gets its old value's name from that value's model, or
   * an empty name if that is gone too (or not readable).
   */
  private async reread(left: Set<OdooRecord>): Promise<void> {
    const now = new Map<number, OdooRecord>();
    for (const row of await this.byIds([...left].map((r) => r.id))) {
      now.set(row.id, row);
      this.learn(row);
    }
    for (const f of this.fields) {
      const known = this.known.get(f) as Map<number, Pair>;
      const gone = new Set<number>();
      for (const r of left) {
        const v = r[f];
        if (typeof v !== 'number' || known.has(v)) continue;
        const fresh = now.get(r.id);
        if (fresh) r[f] = fresh[f] ?? false;
        else gone.add(v);
      }
      if (gone.size > 0) await this.readOwn(f, [...gone]);
      for (const r of left) {
        const v = r[f];
        if (typeof v === 'number') r[f] = known.get(v) ?? [v, ''];
      }
    }
  }

  private learn(row: OdooRecord): void {
    for (const f of this.fields) {
      const v = row[f];
      if (Array.isArray(v)) (this.known.get(f) as Map<number, Pair>).set(v[0] as number, v as Pair);
    }
  }

  /**
   * These records with their names. Asked in id order, as the pages are: without an order Odoo
   * sorts by the model's own (pos.order: date_order desc, name desc, id desc), work the server
   * does for nothing here, as every record is looked up by its id (the sandbox's first such
   * sort of 200k sales took 240-450 ms of its CPU, while the export waited for the names).
   */
  private byIds(ids: number[]): Promise<OdooRecord[]> {
    return this.client.searchRead(this.model, [['id', 'in', ids]], { fields: this.fields, order: 'id' });
  }

  /** The holders' names, learned as they come; `values` (field, value) are what they are read for. */
  private readFrom(holders: number[], values: [string, number][]): Promise<void> {
    const read = this.byIds(holders).then(
      (rows) => {
        for (const row of rows) this.learn(row);
        for (const [f, v] of values) if (!(this.known.get(f) as Map<number, Pair>).has(v)) this.lost = true;
      },
      // Left to fill(): the records still unknown are read again, and a failure then is the
      // export's.
      () => {
        this.lost = true;
      },
    );
    void read.finally(() => {
      for (const reading of this.reading.values()) {
        for (const [v, r] of reading) if (r === read) reading.delete(v);
      }
    });
    return read;
  }

  private async readOwn(field: string, ids: number[]): Promise<void> {
    const relation = (await this.client.fieldsGet(this.model))[field]?.relation;
    if (!relation) return;
    const known = this.known.get(field) as Map<number, Pair>;
    try {
      for (const row of await this.client.read(relation, ids, ['display_name'])) {
        known.set(row.id, [row.id, String(row.display_name)]);
      }
    } catch {
      // Not readable with the user's rights (Odoo reads page names as superuser): no name.
    }
  }
}

/**
 * The query's pages with the names of its many2one fields: once values repeat, the pages come
 * with bare ids and each new value's name is read once (ManyToOneNames).
 */
export async function* namedPages(
  client: OdooClient,
  q: Omit<PageQuery, 'load' | 'arrived'>,
  manyToOne: string[],
  /** Given: the names, and where the consumer looks them up itself (ManyToOneNames.leftBare). */
  given?: ManyToOneNames,
): AsyncGenerator<OdooRecord[]> {
  const names = given ?? (manyToOne.length > 0 ? new ManyToOneNames(client, q.model, manyToOne) : undefined);
  for await (const records of client.pages({ ...q, load: names?.load, arrived: names?.arrived })) {
    if (names) await names.fill(records);
    yield records;
  }
}
