// What a command runs with: the IO, the environment, the Odoo session (opened at the first
// call, closed when the run ends), the one output lifecycle, and what an interrupt must undo.
// The process entry (main.ts) makes one per run over the process's streams; the tests make
// one over a test IO and run the command in-process.
import type { CsvLead } from '../render/formats.js';
import type { ProfileStore } from '../store/profiles.js';
import type { RememberedServer } from '../store/remembered.js';
import type { Env, IO } from './io.js';
import type { Session, SessionOptions } from './session.js';

/**
 * The fields and registers a run read, kept for shell completion, and the fields_get replies
 * for the next run's first pages (src/store/remembered.ts).
 */
async function rememberForCompletion(s: Session, env: Env, chain: InChain | undefined): Promise<void> {
  const { fields, registers } = s.client.learnt();
  if (fields.size === 0 && registers.size === 0) return;
  const { fieldsKey, remember, rememberFields, serverKey } = await import('../store/remembered.js');
  const key = serverKey(s.url.href, s.client.db);
  if (!key) return;
  const seen = {
    fields: Object.fromEntries([...fields].map(([model, f]) => [model, Object.keys(f).sort()])),
    registers: [...registers],
  };
  // In a chain, the chain writes every server's at once at its end (the fields_get replies are
  // a file per server, written by each).
  if (chain?.remember) chain.remember(key, seen);
  else remember(env, key, seen);
  rememberFields(env, fieldsKey(key, s.client.login, s.client.context), Object.fromEntries(fields));
}

/** What a command's writing hands back: to be done once the output is committed, or given up. */
export interface AfterWriting {
  committed?(): void;
  aborted?(): void;
}

/** Something an interrupt drops at once (a socket, a database connection). */
export interface Destroyable {
  destroy(): void;
}

export interface Context {
  readonly io: IO;
  readonly env: Env;
  /**
   * The Odoo session with these connection flags, opened at the first call and the same one
   * after (whatever the flags then); closed when the run ends.
   */
  odoo(connection: SessionOptions): Promise<Session>;
  /** Runs `fn` if the run is interrupted (SIGINT, SIGTERM); call the returned function once it is not needed. */
  onInterrupt(fn: () => Promise<void> | void): () => void;
  /** Dropped at once on an interrupt, until released. */
  hold(live: Destroyable): () => void;
  /** Runs `fn` when the run ends, whichever way (a lock released, a connection closed). */
  atEnd(fn: () => Promise<void> | void): void;
  /** Settles when the process is asked to stop: what a long-running command (sandbox, serve) waits for. */
  readonly stopped: Promise<NodeJS.Signals>;
  /**
   * This run has no end of its own (summary --watch): from now on SIGINT and SIGTERM settle
   * `stopped` and the run ends itself (exit 0), as a long-running command does.
   */
  runsUntilStopped(): void;
  /**
   * This run is one server's of a run over several (src/cli/servers.ts), its output joined with
   * the others': what a single run names by what it alone sees (a payment method's column) is
   * named so that one name means one thing across the chain (summary: `method:Cash · EUR`).
   */
  readonly inChain?: boolean;
  /** This server's CSV joins the chain's as it is written: its records led by its profile (CsvLead). */
  readonly csvLead?: CsvLead;
  /**
   * In a chain whose output is joined, what a server's run does once its output is written (its
   * checkpoint moved on) waits for the joined output: the chain does it once that is written
   * whole, or gives it up (writeOutput). Unset elsewhere: done at once.
   */
  readonly whenJoined?: (after: AfterWriting) => void;
}

/** The context with what the run's owner needs: the end of the run and the interrupt. */
export interface RunContext extends Context {
  /** Closes the session and runs the end-of-run clean-ups (best effort). */
  end(): Promise<void>;
  /** Starts every interrupt clean-up and drops what is held (not awaited: the process is exiting). */
  interrupt(): void;
  /** Tells a long-running command to stop. */
  stop(signal: NodeJS.Signals): void;
  /** The run said it runs until stopped. */
  readonly untilStopped: boolean;
}

/** What one server's run of a chain has beside a single run's (src/cli/servers.ts). */
export interface InChain {
  /** Its output is joined with the others' (Context.inChain), not a file of its own. */
  joined: boolean;
  csvLead?: CsvLead;
  /** The profile store, read once for the chain (a server's session read it again, each its own). */
  store?: ProfileStore;
  /** Keeps what the run saw for completion, for the chain to write once (store/remembered.ts rememberAll). */
  remember?(key: string, seen: RememberedServer): void;
  /** Context.whenJoined. */
  whenJoined?: (after: AfterWriting) => void;
}

export function makeContext(io: IO, env: Env, chain?: InChain): RunContext {
  const cleanups = new Set<() => Promise<void> | void>();
  const held = new Set<Destroyable>();
  const ends: (() => Promise<void> | void)[] = [];
  let session: Promise<Session> | undefined;
  let untilStopped = false;
  let stop: (signal: NodeJS.Signals) => void = () => undefined;
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    stop = resolve;
  });
  const ctx: RunContext = {
    io,
    env,
    inChain: chain?.joined === true,
    csvLead: chain?.csvLead,
    whenJoined: chain?.whenJoined,
    odoo(connection) {
      if (!session) {
        // Loaded here: the HTTP client (undici) is no part of a command's start-up.
        session = import('./session.js').then(({ openSession }) =>
          openSession(connection, io, env, chain?.store),
        );
        session.then(
          (s) => {
            held.add(s.client);
            ends.push(() => s.client.close());
            // Before the close (ends run last first): what completion may offer next time.
            ends.push(() => rememberForCompletion(s, env, chain));
          },
          () => {
            // Not kept: a later call (the next refresh of --watch) tries again.
            session = undefined;
          },
        );
      }
      return session;
    },
    onInterrupt(fn) {
      cleanups.add(fn);
      return () => cleanups.delete(fn);
    },
    hold(live) {
      held.add(live);
      return () => held.delete(live);
    },
    atEnd(fn) {
      ends.push(fn);
    },
    stopped,
    runsUntilStopped() {
      untilStopped = true;
    },
    get untilStopped() {
      return untilStopped;
    },
    async end() {
      for (const fn of ends.splice(0).reverse()) {
        try {
          await fn();
        } catch {
          /* best effort: the run's own outcome stands */
        }
      }
      held.clear();
    },
    interrupt() {
      for (const live of held) live.destroy();
      held.clear();
      for (const fn of cleanups) {
        try {
          void fn();
        } catch {
          /* best effort */
        }
      }
    },
    stop: (signal) => stop(signal),
  };
  return ctx;
}
