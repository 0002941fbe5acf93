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
// Where values hardly repeat (the order of each line, the order of each payment), the
// names would cost a second request nearly as large as the page: the first page decides,
// and any later page that brings more than one new value in ten turns load='' off again.
import type { OdooClient } from '../core/client.js';
import type { OdooRecord } from '../core/types.js';

type Pair = [number, string];

const NOT_YET = Promise.resolve();

/** New values over records above which the names are left in the pages. */
const DENSE = 0.1;
/** Pages smaller than this say little about how values repeat. */
const SAMPLE = 100;
/** Names kept at most: past that, the values do not repeat enough to be worth keeping. */
const KEEP = 20_000;

export class ManyToOneNames {
  private readonly known = new Map<string, Map<number, Pair>>();
  /** Values whose name is being read, by field, with that read. */
  private readonly reading = new Map<string, Map<number, Promise<void>>>();
  private bare = false;
  private decided = false;
  /** Names stay in the pages for good: no more learning from them. */
  private off = false;
  private kept = 0;

  constructor(
    private readonly client: OdooClient,
    private readonly model: string,
    private readonly fields: string[],
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
      let last: unknown;
      for (let i = 0; i < records.length; i++) {
        const r = records[i] as OdooRecord;
        const v = r[f];
        // Values come in runs (a session's sales follow each other): look each run up once.
        if (v === last || v === false) continue;
        last = v;
        if (typeof v === 'number') {
          if (known.has(v) || reading.has(v)) continue;
          // Until the read starts, a placeholder: one holder per value.
          reading.set(v, NOT_YET);
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
    const read = this.readFrom([...holders]);
    for (const [f, v] of waiting) (this.reading.get(f) as Map<number, Promise<void>>).set(v, read);
  };

  /** Replaces the page's bare ids by [id, name], once their names are in. */
  async fill(records: OdooRecord[]): Promise<void> {
    for (let round = 0; ; round++) {
      const reads = new Set<Promise<void>>();
      const missing = new Map<string, number[]>();
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
            if (!pair) {
              const read = this.reading.get(f)?.get(v);
              if (read && read !== NOT_YET) reads.add(read);
              else missing.set(f, [...(missing.get(f) ?? []), v]);
            }
          }
          if (pair) r[f] = pair;
        }
      }
      if (reads.size === 0 && missing.size === 0) return;
      if (round === 3) throw new Error(`no name for some ${this.model} many2one values`);
      await Promise.all(reads);
      // Values whose holders were all deleted between the page and the read (or whose read
      // failed): their names from their own model.
      for (const [f, ids] of missing) await this.readOwn(f, [...new Set(ids)]);
    }
  }

  private readFrom(holders: number[]): Promise<void> {
    const read = this.client.searchRead(this.model, [['id', 'in', holders]], { fields: this.fields }).then(
      (rows) => {
        for (const row of rows) {
          for (const f of this.fields) {
            const v = row[f];
            if (Array.isArray(v)) (this.known.get(f) as Map<number, Pair>).set(v[0] as number, v as Pair);
          }
        }
      },
      // Left to fill(): what is still unknown is read from its own model.
      () => undefined,
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
    if (!relation) throw new Error(`no relation for ${this.model}.${field}`);
    const known = this.known.get(field) as Map<number, Pair>;
    for (const row of await this.client.read(relation, ids, ['display_name'])) {
      known.set(row.id, [row.id, String(row.display_name)]);
    }
  }
}
