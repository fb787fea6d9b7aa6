// formatProviderDate: each form the provider's document and production samples show, in the provider's
// local time, and each naming the instant it was given.
import { describe, expect, it } from 'vitest';
import { DATE_FORMS, formatProviderDate, validUtcOffset } from '../../emulator/dates.ts';
import { formOf, readProviderDate } from './harness.ts';

const at = (iso: string) => Date.parse(iso);

describe('formatProviderDate', () => {
  it('writes the samples of the document and of production in their own forms', () => {
    expect(formatProviderDate(at('2020-01-16T05:30:00.000Z'), 'doc', 5)).toBe('2020-01-16T10:30:00+05');
    expect(formatProviderDate(at('2020-08-09T12:31:42.000Z'), 'doc', 6)).toBe('2020-08-09T18:31:42+06');
    expect(formatProviderDate(at('2025-10-22T12:10:50.717Z'), 'offset', 5)).toBe('2025-10-22T17:10:50.717+05:00');
    expect(formatProviderDate(at('2021-12-08T06:35:48.156Z'), 'local', 5)).toBe('2021-12-08T11:35:48.1560000');
    expect(formatProviderDate(at('2021-11-03T06:55:14.000Z'), 'plus-hhmm', 5)).toBe('2021-11-03T11:55:14+0500');
    expect(formatProviderDate(at('2021-11-03T05:55:14.166Z'), 'one-digit', 6)).toBe('2021-11-3T11:55:14.166+06:00');
  });

  it('drops no fraction it has (doc and plus-hhmm truncate to the second), and pads what it keeps', () => {
    const t = at('2024-02-05T03:04:05.006Z'); // 08:04:05.006 at UTC+5
    expect(formatProviderDate(t, 'doc', 5)).toBe('2024-02-05T08:04:05+05');
    expect(formatProviderDate(t, 'offset', 5)).toBe('2024-02-05T08:04:05.006+05:00');
    expect(formatProviderDate(t, 'local', 5)).toBe('2024-02-05T08:04:05.0060000');
    expect(formatProviderDate(t, 'plus-hhmm', 5)).toBe('2024-02-05T08:04:05+0500');
    // One digit wherever month, day or hour is below 10; minutes and seconds keep two.
    expect(formatProviderDate(t, 'one-digit', 5)).toBe('2024-2-5T8:04:05.006+05:00');
    // Nothing below 10: the one-digit form has nothing to drop.
    expect(formatProviderDate(at('2024-12-25T10:00:00.000Z'), 'one-digit', 5)).toBe('2024-12-25T15:00:00.000+05:00');
  });

  it('writes the local wall clock of the offset, across a day and a year, for any offset', () => {
    const t = at('2021-12-31T20:00:00.000Z');
    expect(formatProviderDate(t, 'doc', 5)).toBe('2022-01-01T01:00:00+05');
    expect(formatProviderDate(t, 'local', 5)).toBe('2022-01-01T01:00:00.0000000');
    expect(formatProviderDate(t, 'doc', 0)).toBe('2021-12-31T20:00:00+00');
    expect(formatProviderDate(t, 'doc', -3)).toBe('2021-12-31T17:00:00-03');
    expect(formatProviderDate(t, 'offset', -3.5)).toBe('2021-12-31T16:30:00.000-03:30');
    expect(formatProviderDate(t, 'plus-hhmm', 5.75)).toBe('2022-01-01T01:45:00+0545');
    // An offset with minutes cannot be written in hours only: the document's form keeps the minutes.
    expect(formatProviderDate(t, 'doc', 5.5)).toBe('2022-01-01T01:30:00+05:30');
    // UTC+5 when no offset is given.
    expect(formatProviderDate(t, 'doc')).toBe('2022-01-01T01:00:00+05');
  });

  it('every form names the instant it was given (to the second where it has no fraction)', () => {
    for (const iso of ['2026-11-27T07:03:14.980Z', '2024-02-05T03:04:05.006Z', '2021-12-31T20:00:00.000Z']) {
      for (const offset of [5, 6, 0, -3]) {
        for (const form of DATE_FORMS) {
          const text = formatProviderDate(at(iso), form, offset);
          const keepsMs = form === 'offset' || form === 'local' || form === 'one-digit';
          const expected = keepsMs ? at(iso) : Math.floor(at(iso) / 1000) * 1000;
          expect(readProviderDate(text, offset), `${form} ${offset} ${text}`).toBe(expected);
          if (form !== 'one-digit') expect(formOf(text), text).toBe(form);
        }
      }
    }
  });

  it('takes offsets of whole minutes within the zones that exist', () => {
    for (const ok of [5, 6, 0, -12, 14, 5.5, 5.75]) expect(validUtcOffset(ok), String(ok)).toBe(true);
    for (const bad of [15, -13, 5.01, Number.NaN, '5', null]) expect(validUtcOffset(bad), String(bad)).toBe(false);
  });
});
