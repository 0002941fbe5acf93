// The budget towards Odoo that all users of `posdata serve` share (--rate requests a
// minute, a pool of connections) is handed out in turns per user: each user has a queue,
// and a free slot goes to the next user in the ring, not to the oldest request. One user's
// burst (or export) therefore delays another by at most one request per turn. A request
// that cannot get a slot within --timeout fails as a timeout (504) instead of waiting on.
// Every login attempt, whatever name it tries, waits in one lane of its own (LOGIN_LANE):
// callers who are not logged in take one turn in the ring together, never one each.
import { ConnectionError } from '../core/errors.js';
import type { RateLimiter } from '../core/ratelimit.js';
import { say } from '../core/redact.js';
import type { Credentials, Transport } from '../core/transport.js';

/** The lane all login attempts share until Odoo accepts one; users' lanes are `user:<login>`. */
export const LOGIN_LANE = 'login';

/** Waited too long for a slot of the shared budget: the service's own 504. */
export class SlotTimeout extends ConnectionError {
  override name = 'SlotTimeout';
}

interface Waiter {
  resolve: () => void;
  timer: NodeJS.Timeout;
}

export class FairGate {
  private readonly lanes = new Map<string, Waiter[]>();
  /** Users with waiting requests, in turn order. */
  private readonly ring: string[] = [];
  private inFlight = 0;
  private wake: NodeJS.Timeout | undefined;

  constructor(
    /** Requests to Odoo at once (the HTTP layer's connection pool). */
    readonly concurrency: number,
    private readonly limiter: RateLimiter,
    /** How long a request may wait for a slot (--timeout). */
    readonly waitMs: number,
    private readonly describe: string,
  ) {}

  /** Runs `fn` once `user` has its turn and a slot is free. */
  async run<T>(user: string, fn: () => Promise<T>): Promise<T> {
    await this.admit(user);
    try {
      return await fn();
    } finally {
      this.inFlight--;
      this.pump();
    }
  }

  close(): void {
    if (this.wake) clearTimeout(this.wake);
  }

  private admit(user: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = {
        resolve,
        timer: setTimeout(() => {
          const lane = this.lanes.get(user);
          const i = lane?.indexOf(w) ?? -1;
          if (lane && i >= 0) lane.splice(i, 1);
          if (lane && lane.length === 0) this.leave(user);
          reject(
            new SlotTimeout(
              say`no free slot towards Odoo within ${Math.round(this.waitMs / 1000)} s (${this.describe}, shared by all users)`,
              say`retry later; the operator can raise --rate or --timeout`,
            ),
          );
        }, this.waitMs),
      };
      let lane = this.lanes.get(user);
      if (!lane) {
        lane = [];
        this.lanes.set(user, lane);
        this.ring.push(user);
      }
      lane.push(w);
      this.pump();
    });
  }

  private leave(user: string): void {
    this.lanes.delete(user);
    const i = this.ring.indexOf(user);
    if (i >= 0) this.ring.splice(i, 1);
  }

  private pump(): void {
    while (this.inFlight < this.concurrency && this.ring.length > 0) {
      const wait = this.limiter.peek();
      if (wait > 0) {
        if (!this.wake) {
          this.wake = setTimeout(() => {
            this.wake = undefined;
            this.pump();
          }, wait);
          this.wake.unref();
        }
        return;
      }
      const user = this.ring.shift() as string;
      const lane = this.lanes.get(user) as Waiter[];
      const w = lane.shift() as Waiter;
      if (lane.length > 0) this.ring.push(user);
      else this.lanes.delete(user);
      clearTimeout(w.timer);
      this.inFlight++;
      w.resolve();
    }
  }
}

/**
 * A user's view of the shared transport: every request to Odoo waits for its turn, in the
 * login lane until Odoo has accepted the credentials, then in the user's own.
 */
export class FairTransport implements Transport {
  private lane = LOGIN_LANE;
  private readonly user: string;

  constructor(
    private readonly inner: Transport,
    private readonly gate: FairGate,
    login: string,
  ) {
    this.user = `user:${login.toLowerCase()}`;
  }

  get protocol() {
    return this.inner.protocol;
  }

  get requestCount(): number {
    return this.inner.requestCount;
  }

  version() {
    return this.gate.run(this.lane, () => this.inner.version());
  }

  async authenticate(creds: Credentials): Promise<number> {
    const uid = await this.gate.run(this.lane, () => this.inner.authenticate(creds));
    this.lane = this.user;
    return uid;
  }

  get serverDate(): number | undefined {
    return this.inner.serverDate;
  }

  executeKw(...call: Parameters<Transport['executeKw']>): Promise<unknown> {
    return this.gate.run(this.lane, () => this.inner.executeKw(...call));
  }

  describeCall(...call: Parameters<Transport['describeCall']>): ReturnType<Transport['describeCall']> {
    return this.inner.describeCall(...call);
  }

  /** The shared transport outlives each user: the service closes it when it stops. */
  async close(): Promise<void> {}

  destroy(): void {}
}
