/**
 * Injected faults, to exercise a client's error handling against the sandbox.
 *
 * Grammar (`--faults SPEC`): rules separated by `;` (or by `,` before a new rule)
 *   RULE  := KINDS '@' N[,N...]          the Nth HTTP request(s) served (1-based) get the fault
 *          | 'rate=' P ':' KINDS         each request gets one of KINDS with probability P (0..1)
 *          | 'every=' K ':' KINDS        every Kth request
 *   KINDS := KIND ['|' KIND ...]         (also ',' inside a rate=/every= rule) one is drawn per hit
 *   KIND  := 502 | 503 | 504 | 500 | 429 | reset | cut | html | notrpc | slow[MS] | expired
 * Options, also separated by `;`: `seed=N` (default: the sandbox seed), `probes` (also hit
 * `common.version` calls; by default version probes are exempt so that start-up checks pass),
 * `cap=N` (search_read answers at most N records whatever limit is asked, as a proxy or a
 * module that caps it does: a short page while more records match), `books` (not a request's
 * fault but the data's: five of company 1's last closings post entries that differ from their
 * sessions, data/books.ts), `books-fr` (the closings' entries labelled for a French user: the
 * two labels Odoo translates, the balancing line's and the invoice payments', in French),
 * `lie=LIE` (every read_group and formatted_read_group answer lies, as no Odoo does: LIE is
 * `sum-text` (each aggregate but the counts as a string), `count-negative` and `count-fraction`
 * (each group's __count below zero, or with a half), `sum-huge` (each such aggregate 1e20),
 * `day-garbage` (each date group's start is not a date, one text for all)).
 * Example: `502@3;rate=0.05:502,503,504,429,reset,cut,html,notrpc,slow2000,expired`.
 * Draws come from a PRNG seeded with the seed, in request order, so a run is repeatable.
 */
import { Prng } from './prng.js';

/** A --faults spec that cannot be read: its message says which part and why. */
export class FaultSpecError extends Error {}

export type FaultKind =
  | '500'
  | '502'
  | '503'
  | '504'
  | '429'
  | 'reset'
  | 'cut'
  | 'html'
  | 'notrpc'
  | 'slow'
  | 'expired';

export interface Fault {
  kind: FaultKind;
  /** For `slow`: the delay in ms. */
  ms: number;
}

interface Rule {
  at?: Set<number>;
  rate?: number;
  every?: number;
  kinds: Fault[];
}

const KIND_RE = /^(500|502|503|504|429|reset|cut|html|notrpc|expired|slow(\d+)?)$/;

function parseKinds(text: string): Fault[] {
  return text
    .split(/[|,]/)
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k) => {
      const m = KIND_RE.exec(k);
      if (!m)
        throw new FaultSpecError(
          `unknown fault kind '${k}' (use 500, 502, 503, 504, 429, reset, cut, html, notrpc, slow[MS], expired)`,
        );
      const slow = k.startsWith('slow');
      return { kind: (slow ? 'slow' : k) as FaultKind, ms: slow ? Number(m[2] ?? 3000) : 0 };
    });
}

export class FaultPlan {
  private readonly rules: Rule[] = [];
  private readonly rng: Prng;
  readonly probes: boolean;
  readonly spec: string;
  /** `cap=N`: the most records a search_read answers. */
  readonly cap: number | undefined;
  /** `books`: closings whose journal entries differ from the POS. */
  readonly books: boolean;
  /** `books-fr`: the closings' translated labels in French. */
  readonly booksFrench: boolean;
  /** `lie=LIE`: how every grouping answer lies. */
  readonly lie: GroupLie | undefined;

  constructor(spec: string, seed: number) {
    this.spec = spec.trim();
    let s = seed;
    let probes = false;
    let cap: number | undefined;
    let books = false;
    let booksFrench = false;
    let lie: GroupLie | undefined;
    const parts = this.spec
      .split(';')
      .flatMap((p) =>
        p.split(/,(?=\s*(?:rate=|every=|seed=|cap=|lie=|probes\b|books(?:-fr)?\b|[a-z0-9|]+@))/),
      )
      .map((p) => p.trim())
      .filter(Boolean);
    for (const part of parts) {
      if (part === 'probes') probes = true;
      else if (part === 'books') books = true;
      else if (part === 'books-fr') booksFrench = true;
      else if (part.startsWith('cap=')) {
        cap = Number(part.slice(4));
        if (!(Number.isSafeInteger(cap) && cap > 0))
          throw new FaultSpecError(`bad search_read cap '${part.slice(4)}'`);
      } else if (part.startsWith('lie=')) {
        const l = part.slice(4);
        if (!isLie(l)) throw new FaultSpecError(`unknown lie '${l}' (use ${GROUP_LIES.join(', ')})`);
        lie = l;
      } else if (part.startsWith('seed=')) {
        s = Number(part.slice(5));
        if (!Number.isSafeInteger(s)) throw new FaultSpecError(`bad fault seed '${part.slice(5)}'`);
      } else if (part.startsWith('rate=')) {
        const [p, kinds] = splitOnce(part.slice(5), ':');
        const rate = Number(p);
        if (!(rate >= 0 && rate <= 1)) throw new FaultSpecError(`bad fault rate '${p}'`);
        this.rules.push({ rate, kinds: parseKinds(kinds) });
      } else if (part.startsWith('every=')) {
        const [k, kinds] = splitOnce(part.slice(6), ':');
        const every = Number(k);
        if (!(Number.isInteger(every) && every > 0)) throw new FaultSpecError(`bad fault period '${k}'`);
        this.rules.push({ every, kinds: parseKinds(kinds) });
      } else if (part.includes('@')) {
        const [kinds, at] = splitOnce(part, '@');
        const set = new Set(at.split(',').map((n) => Number(n.trim())));
        for (const n of set)
          if (!(Number.isInteger(n) && n > 0)) throw new FaultSpecError(`bad fault position in '${part}'`);
        this.rules.push({ at: set, kinds: parseKinds(kinds) });
      } else throw new FaultSpecError(`cannot read fault rule '${part}'`);
    }
    this.probes = probes;
    this.cap = cap;
    this.books = books;
    this.booksFrench = booksFrench;
    this.lie = lie;
    this.rng = new Prng(s ^ 0x5eed);
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /** The fault for the nth request (1-based), if any. Every request draws, so runs repeat exactly. */
  decide(n: number, isProbe: boolean): Fault | undefined {
    let chosen: Fault | undefined;
    for (const r of this.rules) {
      const draw = this.rng.float();
      const pick = this.rng.float();
      if (chosen) continue;
      const hit = r.at ? r.at.has(n) : r.every ? n % r.every === 0 : draw < (r.rate ?? 0);
      if (hit) chosen = r.kinds[Math.floor(pick * r.kinds.length)];
    }
    if (chosen && isProbe && !this.probes) return undefined;
    return chosen;
  }
}

function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  if (i < 0) throw new FaultSpecError(`expected '${sep}' in fault rule '${s}'`);
  return [s.slice(0, i), s.slice(i + 1)];
}

const GROUP_LIES = ['sum-text', 'count-negative', 'count-fraction', 'sum-huge', 'day-garbage'] as const;
export type GroupLie = (typeof GROUP_LIES)[number];
const isLie = (s: string): s is GroupLie => (GROUP_LIES as readonly string[]).includes(s);

/** Keys of a read_group answer that are no aggregate. */
const NOT_AGGREGATE = new Set(['__count', '__domain', '__range', '__context', '__extra_domain', '__fold']);
const DATE_GROUP = /:(hour|day|week|month|quarter|year)$/;
/** The text every date group starts at under `day-garbage`: the same for all, as a broken proxy's. */
const GARBAGE_DAY = 'yesterday-ish';

/**
 * A grouping answer as `lie` makes it (the answer itself changed): a sum is a number under a
 * key that is no groupby spec nor a `__` key; read_group (16-18) gives a date group's start in
 * `__range`, formatted_read_group (19) as the first of [start, label].
 */
export function lieInGroups(lie: GroupLie, groups: unknown, groupby: readonly string[]): unknown {
  if (!Array.isArray(groups)) return groups;
  const gb = new Set(groupby.flatMap((s) => [s, s.split(':')[0] as string]));
  for (const g of groups as Record<string, unknown>[]) {
    if (lie === 'count-negative' && typeof g.__count === 'number') g.__count = -g.__count;
    if (lie === 'count-fraction' && typeof g.__count === 'number') g.__count += 0.5;
    for (const [k, v] of Object.entries(g)) {
      if (typeof v !== 'number' || NOT_AGGREGATE.has(k) || gb.has(k) || /:count(_distinct)?$/.test(k))
        continue;
      if (lie === 'sum-text') g[k] = String(v);
      if (lie === 'sum-huge') g[k] = 1e20;
    }
    if (lie !== 'day-garbage') continue;
    for (const spec of groupby.filter((s) => DATE_GROUP.test(s))) {
      const v = g[spec];
      if (Array.isArray(v)) v[0] = GARBAGE_DAY;
      const range = (g.__range as Record<string, { from?: string } | false> | undefined)?.[spec];
      if (range) range.from = GARBAGE_DAY;
    }
  }
  return groups;
}
