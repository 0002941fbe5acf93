// Error kinds carry a brand: an error made by another copy of src/core/errors.ts (a second
// bundle, a test importing src/ beside dist/) is still of its kind, gives its exit code and
// is retried as its own copy's would be.
import { describe, expect, it } from 'vitest';
import { testIO } from '../../src/cli/io.js';
import { sayError } from '../../src/cli/say-error.js';
import {
  AuthError,
  ConnectionError,
  EXIT,
  isPosdataError,
  isTransient,
  PosdataError,
  ProtocolError,
  UsageError,
} from '../../src/core/errors.js';
import { say } from '../../src/core/redact.js';

// The query makes Vite load the module a second time: its classes are other objects.
const copy = (await import(
  // @ts-expect-error: the query string is Vite's, which TypeScript does not resolve.
  '../../src/core/errors.ts?second-copy'
)) as typeof import('../../src/core/errors.js');

describe('error kinds from another copy of the module', () => {
  it('is a second copy indeed', () => {
    expect(copy.ConnectionError).not.toBe(ConnectionError);
  });

  it('keeps its kind, and only its own', () => {
    const err = new copy.ConnectionError(say`connection to x refused`, undefined, { transient: true });
    expect(err instanceof ConnectionError).toBe(true);
    expect(err instanceof PosdataError).toBe(true);
    expect(err instanceof ProtocolError).toBe(false);
    expect(err instanceof AuthError).toBe(false);
    expect(isPosdataError(err)).toBe(true);
    expect(isTransient(err)).toBe(true);
    expect(new copy.ProtocolError(say`cut`, undefined, { transient: true }) instanceof ConnectionError).toBe(
      false,
    );
    expect(new UsageError(say`x`) instanceof copy.UsageError).toBe(true);
    expect(new Error('x') instanceof PosdataError).toBe(false);
    expect((null as unknown) instanceof PosdataError).toBe(false);
  });

  it('gives its exit code and its one line', () => {
    const io = testIO({});
    expect(sayError(new copy.AuthError(say`rejected`, say`log in again`), io, false)).toBe(EXIT.auth);
    expect(io.stderr()).toBe('posdata: rejected; log in again\n');
  });

  it('a subclass declared elsewhere is told apart from its parent kind by its prototype', () => {
    class Slow extends ConnectionError {}
    const plain = new ConnectionError(say`x`);
    const slow = new Slow(say`x`);
    expect(slow instanceof Slow).toBe(true);
    expect(slow instanceof ConnectionError).toBe(true);
    expect(plain instanceof Slow).toBe(false);
    expect(isTransient(new Slow(say`x`, undefined, { transient: true }))).toBe(true);
  });
});
