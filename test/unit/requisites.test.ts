// Kazakh requisites: BIN/IIN check digit (both weight rounds), IBAN mod 97, BIK, Kbe, phone.
import { describe, expect, it } from 'vitest';
import { checkBik, checkBin, checkIban, checkKbe, checkPhone } from '../../src/domain/organization/requisites.ts';

/** A valid BIN for the first 11 digits, computed independently of the module. */
function withCheckDigit(first11: string): string | undefined {
  const d = [...first11].map(Number);
  let c = d.reduce((a, x, i) => a + x * (i + 1), 0) % 11;
  if (c === 10) c = d.reduce((a, x, i) => a + x * (((i + 2) % 11) + 1), 0) % 11;
  return c === 10 ? undefined : first11 + c;
}

describe('BIN/IIN', () => {
  it('accepts a number whose check digit is right, with spaces', () => {
    const bin = withCheckDigit('99014000123')!;
    expect(checkBin(bin)).toEqual({ ok: true, value: bin });
    expect(checkBin(`${bin.slice(0, 6)} ${bin.slice(6)}`)).toEqual({ ok: true, value: bin });
  });

  it('refuses a wrong check digit, a wrong length and letters', () => {
    const bin = withCheckDigit('99014000123')!;
    const wrong = bin.slice(0, 11) + ((Number(bin[11]) + 1) % 10);
    expect(checkBin(wrong)).toEqual({ ok: false, why: 'has a wrong check digit' });
    expect(checkBin('12345678901').ok).toBe(false);
    expect(checkBin('1234567890AB').ok).toBe(false);
  });

  it('uses the second weights when the first round gives 10', () => {
    // Find an 11-digit prefix whose first round is 10, and check both outcomes of the second round.
    let seen = 0;
    for (let n = 10000000000; n < 10000002000 && seen < 3; n++) {
      const p = String(n);
      const first = [...p].map(Number).reduce((a, x, i) => a + x * (i + 1), 0) % 11;
      if (first !== 10) continue;
      seen++;
      const full = withCheckDigit(p);
      if (full) expect(checkBin(full).ok, full).toBe(true);
      for (let c = 0; c <= 9; c++) if (p + c !== full) expect(checkBin(p + c).ok, p + c).toBe(false);
    }
    expect(seen).toBeGreaterThan(0);
  });
});

describe('IBAN', () => {
  it('accepts a Kazakh IBAN that passes mod 97, in any case and spacing', () => {
    expect(checkIban('KZ86125KZT5004100100')).toEqual({ ok: true, value: 'KZ86125KZT5004100100' });
    expect(checkIban('kz86 125k zt50 0410 0100')).toEqual({ ok: true, value: 'KZ86125KZT5004100100' });
  });

  it('refuses a changed digit, another country and a wrong length', () => {
    expect(checkIban('KZ86125KZT5004100101')).toEqual({ ok: false, why: 'fails the IBAN check (mod 97)' });
    expect(checkIban('DE89370400440532013000').ok).toBe(false);
    expect(checkIban('KZ86125KZT500410010').ok).toBe(false);
  });
});

describe('BIK, Kbe, phone', () => {
  it('BIK: 8 to 11 letters or digits', () => {
    expect(checkBik('kcjbkzkx')).toEqual({ ok: true, value: 'KCJBKZKX' });
    expect(checkBik('HSBKKZKXXXX').ok).toBe(true);
    expect(checkBik('KCJB').ok).toBe(false);
    expect(checkBik('KCJB-KZKX').ok).toBe(false);
  });

  it('Kbe: two digits, residency first', () => {
    expect(checkKbe('17')).toEqual({ ok: true, value: '17' });
    expect(checkKbe('37').ok).toBe(false);
    expect(checkKbe('1').ok).toBe(false);
  });

  it('phone: valid numbers in E.164, Kazakh by default', () => {
    expect(checkPhone('8 727 258 12 34')).toEqual({ ok: true, value: '+77272581234' });
    expect(checkPhone('+7 701 234 56 78')).toEqual({ ok: true, value: '+77012345678' });
    expect(checkPhone('12345').ok).toBe(false);
  });
});
