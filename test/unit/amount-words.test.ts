import { describe, expect, it } from 'vitest';
import { numberInWords, tengeInWords } from '../../src/web/amount-words.ts';

describe('amounts in Russian words', () => {
  it('handles the genders, the teens and the plurals', () => {
    expect(numberInWords(0)).toBe('ноль');
    expect(numberInWords(1)).toBe('один');
    expect(numberInWords(11)).toBe('одиннадцать');
    expect(numberInWords(21)).toBe('двадцать один');
    expect(numberInWords(1000)).toBe('одна тысяча');
    expect(numberInWords(2000)).toBe('две тысячи');
    expect(numberInWords(5000)).toBe('пять тысяч');
    expect(numberInWords(11000)).toBe('одиннадцать тысяч');
    expect(numberInWords(30000)).toBe('тридцать тысяч');
    expect(numberInWords(122_345)).toBe('сто двадцать две тысячи триста сорок пять');
    expect(numberInWords(1_000_001)).toBe('один миллион один');
    expect(numberInWords(2_514_000_000)).toBe('два миллиарда пятьсот четырнадцать миллионов');
  });

  it('writes a total as an act does, and refuses what is not a whole amount', () => {
    expect(tengeInWords(36000)).toBe('Тридцать шесть тысяч тенге 00 тиын');
    expect(() => numberInWords(1.5)).toThrow();
    expect(() => numberInWords(-1)).toThrow();
  });
});
