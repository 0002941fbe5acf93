import type { IO } from '../cli/io.js';
import { UsageError } from '../core/errors.js';

export async function runServe(_o: Record<string, unknown>, _io: IO): Promise<void> {
  throw new UsageError('serve is being built', 'see issue 9');
}
