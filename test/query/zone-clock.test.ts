// A --tz export's datetimes are moved into the zone with the zone's offset asked of luxon
// once per UTC hour, not by luxon's format parser per value (~140 µs each, most of such an
// export's time): the same text as luxon writes, valid or not, in zones whose clocks move on
// the hour, off it (Lord Howe's half hour), by odd minutes (Kathmandu, Chatham) and in
// seconds (Amsterdam and Monrovia before 1940), and in no zone at all.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ODOO_FORMAT, utcToZoneIso, utcToZoneShort, wallClock } from '../../src/query/time.js';

const two = (n: number) => String(n).padStart(2, '0');

/** What the functions wrote when luxon read and wrote every value. */
const luxon = {
  iso(value: string, zone: string): string {
    const d = DateTime.fromFormat(value, ODOO_FORMAT, { zone: 'UTC' });
    return d.isValid ? (d.setZone(zone).toISO({ suppressMilliseconds: true }) ?? value) : value;
  },
  short(value: string, zone: string): string {
    const d = DateTime.fromFormat(value, ODOO_FORMAT, { zone: 'UTC' });
    return d.isValid ? d.setZone(zone).toFormat('yyyy-MM-dd HH:mm') : value;
  },
  wall(value: string, zone: string): string {
    const d = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)
      ? DateTime.fromFormat(value, ODOO_FORMAT, { zone: 'UTC' })
      : DateTime.fromISO(value, { setZone: true });
    return d.isValid ? d.setZone(zone).toFormat('yyyy-MM-dd HH:mm:ss') : value;
  },
};

const ZONES = [
  'UTC',
  'Europe/Brussels',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/St_Johns',
  'Europe/Amsterdam',
  'Africa/Monrovia',
  'Pacific/Kiritimati',
  'Nope/Nowhere',
];

const odooText = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 61 }),
    fc.integer({ min: 0, max: 61 }),
  )
  .map(
    ([y, mo, d, h, mi, s]) =>
      `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)} ${two(h)}:${two(mi)}:${two(s)}`,
  );
/** Recent instants, where the shops' data is, as Odoo writes them. */
const recent = fc
  .integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2040, 0, 1) })
  .map((ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' '));

describe("a zone's times without luxon per value", () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes what luxon writes, valid or not', () => {
    fc.assert(
      fc.property(fc.oneof(recent, odooText, fc.string()), fc.constantFrom(...ZONES), (v, zone) => {
        expect(utcToZoneIso(v, zone)).toBe(luxon.iso(v, zone));
        expect(utcToZoneShort(v, zone)).toBe(luxon.short(v, zone));
        expect(wallClock(v, zone)).toBe(luxon.wall(v, zone));
        // --tz with --excel: the ISO text of one zone on the wall clock of another.
        const iso = luxon.iso(v, zone);
        for (const other of ['Europe/Brussels', 'Asia/Kathmandu'])
          expect(wallClock(iso, other)).toBe(luxon.wall(iso, other));
      }),
      { numRuns: 4000 },
    );
  });

  it('keeps the hours the clocks change', () => {
    const around = (utc: string) => {
      const t = DateTime.fromFormat(utc, ODOO_FORMAT, { zone: 'UTC' });
      return [-61, -1, 0, 1, 59, 1799, 1800, 3599, 3600].map((s) =>
        t.plus({ seconds: s }).toFormat(ODOO_FORMAT),
      );
    };
    const changes: [string, string][] = [
      ['Europe/Brussels', '2026-03-29 01:00:00'],
      ['Europe/Brussels', '2026-10-25 01:00:00'],
      ['America/New_York', '2026-11-01 06:00:00'],
      ['Australia/Lord_Howe', '2026-04-04 15:00:00'],
      ['Australia/Lord_Howe', '2026-10-03 15:30:00'],
      ['Pacific/Chatham', '2026-04-04 14:00:00'],
    ];
    for (const [zone, utc] of changes)
      for (const v of around(utc)) {
        expect(utcToZoneIso(v, zone)).toBe(luxon.iso(v, zone));
        expect(wallClock(v, zone)).toBe(luxon.wall(v, zone));
      }
  });

  it('asks luxon once per hour of the data, not once per value', () => {
    const fromFormat = vi.spyOn(DateTime, 'fromFormat');
    const fromMillis = vi.spyOn(DateTime, 'fromMillis');
    const fromISO = vi.spyOn(DateTime, 'fromISO');
    // A day of 2,880 sales, one every 30 seconds, in a zone no other test here has asked.
    const start = Date.UTC(2031, 4, 6);
    for (let i = 0; i < 2880; i++) {
      const v = new Date(start + i * 30_000).toISOString().slice(0, 19).replace('T', ' ');
      wallClock(utcToZoneIso(v, 'Asia/Tokyo'), 'Asia/Tokyo');
      utcToZoneShort(v, 'Asia/Tokyo');
    }
    expect(fromFormat).not.toHaveBeenCalled();
    expect(fromISO).not.toHaveBeenCalled();
    // Two instants (the hour's first and last millisecond) for each of the day's 24 hours.
    expect(fromMillis.mock.calls.length).toBeLessThanOrEqual(2 * 24);
  });

  it('writes a run of values in one minute as luxon does, seconds real or not', () => {
    const minute = fc.tuple(
      recent,
      fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 1, maxLength: 8 }),
    );
    fc.assert(
      fc.property(minute, fc.constantFrom(...ZONES), ([v, seconds], zone) => {
        for (const s of seconds) {
          const w = `${v.slice(0, 17)}${two(s)}`;
          expect(utcToZoneIso(w, zone)).toBe(luxon.iso(w, zone));
          expect(wallClock(w, zone)).toBe(luxon.wall(w, zone));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('writes a run of values in one hour as luxon does, minutes and seconds real or not', () => {
    const hour = fc.tuple(
      recent,
      fc.array(fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 })), {
        minLength: 1,
        maxLength: 8,
      }),
    );
    fc.assert(
      fc.property(hour, fc.constantFrom(...ZONES), ([v, times], zone) => {
        for (const [m, s] of times) {
          const w = `${v.slice(0, 14)}${two(m)}:${two(s)}`;
          expect(utcToZoneIso(w, zone)).toBe(luxon.iso(w, zone));
          expect(wallClock(w, zone)).toBe(luxon.wall(w, zone));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("writes the values of a minute from that minute's text, without two Dates each", () => {
    // An export's sales come in id order, several a minute: a --tz or --excel export made two
    // Dates a value (its instant, then its clock), most of such an export's extra CPU.
    const RealDate = globalThis.Date;
    let made = 0;
    globalThis.Date = new Proxy(RealDate, {
      construct(target, args) {
        made++;
        return Reflect.construct(target, args);
      },
    });
    try {
      for (let s = 0; s < 60; s++) {
        utcToZoneIso(`2032-02-03 04:05:${two(s)}`, 'Asia/Tokyo');
        wallClock(`2032-02-03 04:05:${two(s)}`, 'Asia/Tokyo');
      }
    } finally {
      globalThis.Date = RealDate;
    }
    expect(made).toBeLessThan(20);
  });

  it("writes the values of an hour from that hour's text where the offset is whole hours", () => {
    // A shop's sales are a few an hour more often than a few a minute: in a zone whose offset
    // is whole hours, the minutes and seconds are the UTC text's own.
    const RealDate = globalThis.Date;
    let made = 0;
    globalThis.Date = new Proxy(RealDate, {
      construct(target, args) {
        made++;
        return Reflect.construct(target, args);
      },
    });
    const seen: [string, string, string][] = [];
    try {
      for (let s = 0; s < 3600; s += 37) {
        const v = `2032-02-03 04:${two(Math.floor(s / 60))}:${two(s % 60)}`;
        seen.push([v, utcToZoneIso(v, 'Asia/Tokyo'), wallClock(v, 'Asia/Tokyo')]);
      }
    } finally {
      globalThis.Date = RealDate;
    }
    expect(made).toBeLessThan(20);
    for (const [v, iso, wall] of seen) {
      expect(iso).toBe(luxon.iso(v, 'Asia/Tokyo'));
      expect(wall).toBe(luxon.wall(v, 'Asia/Tokyo'));
    }
  });
});
