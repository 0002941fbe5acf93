// One item read ahead of its consumer: as soon as an item is handed out, the next is asked
// for, so that reading it (a page's request, its reply parsed, its names filled in) runs
// while the consumer works on the one it holds (a page COPYed into PostgreSQL). At most one
// item waits: memory stays that of two pages. Nothing of the consumer's own work moves: an
// item read ahead is only read, and whatever the consumer does with it (commit a page, move
// a watermark) still happens in order, after the items before it.

/**
 * The items of `source`, each next one asked for while the consumer holds the one before.
 * When the consumer stops early (an error, a break), the source is closed once the item
 * being read has come in; that item's failure, if any, is nobody's.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let next: Promise<IteratorResult<T>> | undefined = it.next();
  try {
    for (;;) {
      const got = await next;
      next = undefined;
      if (got.done) return;
      next = it.next();
      // Awaited at the next turn; until then, a failure is held, not unhandled.
      next.catch(() => undefined);
      yield got.value;
    }
  } finally {
    // An async generator queues return() behind the pending next(): the source's own
    // cleanup runs once the item it is reading is in.
    if (next) it.return?.()?.catch(() => undefined);
  }
}
