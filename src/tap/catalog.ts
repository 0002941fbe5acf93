// The Singer catalog: what --discover writes (every sync resource as a stream, its schema
// and metadata), and what --catalog / --properties give back (the streams and fields
// selected). The key and the replication key are always read ("inclusion": "automatic").
import { SYNC_NAMES, type SyncName } from '../catalog/resources.js';
import { UsageError } from '../core/errors.js';
import { own, say } from '../core/redact.js';
import type { Column } from '../records/columns.js';
import { readDocument } from './config.js';
import { type JsonSchema, streamSchema } from './schema.js';

export const KEY = 'id';
export const REPLICATION_KEY = 'write_date';

interface Metadata {
  breadcrumb: string[];
  metadata: Record<string, unknown>;
}

export interface CatalogEntry {
  tap_stream_id: string;
  stream: string;
  schema: JsonSchema;
  key_properties: string[];
  replication_key: string;
  replication_method: 'INCREMENTAL';
  metadata: Metadata[];
}

/** A stream as --discover writes it: selected, every field with it. */
export function catalogEntry(name: SyncName, columns: Column[]): CatalogEntry {
  return {
    tap_stream_id: name,
    stream: name,
    schema: streamSchema(columns),
    key_properties: [KEY],
    replication_key: REPLICATION_KEY,
    replication_method: 'INCREMENTAL',
    metadata: [
      {
        breadcrumb: [],
        metadata: {
          'table-key-properties': [KEY],
          'valid-replication-keys': [REPLICATION_KEY],
          'forced-replication-method': 'INCREMENTAL',
          'replication-method': 'INCREMENTAL',
          'replication-key': REPLICATION_KEY,
          inclusion: 'available',
          'selected-by-default': true,
          selected: true,
        },
      },
      ...columns.map((c) => ({
        breadcrumb: ['properties', c.name],
        metadata: {
          inclusion: c.name === KEY || c.name === REPLICATION_KEY ? 'automatic' : 'available',
          'selected-by-default': true,
        },
      })),
    ],
  };
}

/** What a catalog selects: the streams, and per stream the properties left out. */
export type Selection = Map<SyncName, { deselected: Set<string> }>;

const HINT = say`give the catalog that posdata tap --discover wrote, with streams selected or not`;

/**
 * The streams a catalog selects, in its own Singer forms: `"selected": true` in the stream's
 * metadata (breadcrumb []), or in its schema (the older --properties). A property is left
 * out by `"selected": false` in its metadata or its schema; the key and write_date are
 * always read.
 */
export function readCatalog(path: string): Selection {
  const doc = readDocument(path, 'catalog', HINT);
  const bad = (what: string) => new UsageError(say`the catalog ${path} ${own(what)}`, HINT);
  if (!Array.isArray(doc.streams)) throw bad('has no streams list');
  const out: Selection = new Map();
  for (const s of doc.streams as Record<string, unknown>[]) {
    if (typeof s !== 'object' || s === null) throw bad('has a stream that is not an object');
    const name = (s.tap_stream_id ?? s.stream) as string;
    if (!SYNC_NAMES.includes(name as SyncName))
      throw new UsageError(
        say`the catalog ${path} has a stream ${String(name)}, which posdata tap does not have`,
        say`its streams are ${own(SYNC_NAMES.join(', '))}; run posdata tap --discover for a catalog`,
      );
    const metadata = Array.isArray(s.metadata) ? (s.metadata as Metadata[]) : [];
    const schema = (typeof s.schema === 'object' && s.schema !== null ? s.schema : {}) as JsonSchema;
    const top = metadata.find((m) => Array.isArray(m?.breadcrumb) && m.breadcrumb.length === 0)?.metadata;
    const selected = top?.selected ?? schema.selected;
    if (selected !== true) continue;
    const deselected = new Set<string>();
    for (const m of metadata) {
      const [p, field] = Array.isArray(m?.breadcrumb) ? m.breadcrumb : [];
      if (p === 'properties' && typeof field === 'string' && m.metadata?.selected === false)
        deselected.add(field);
    }
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const [field, p] of Object.entries(props)) if (p?.selected === false) deselected.add(field);
    deselected.delete(KEY);
    deselected.delete(REPLICATION_KEY);
    out.set(name as SyncName, { deselected });
  }
  return out;
}
