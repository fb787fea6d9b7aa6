// A whole number of tenge in Russian words, as an act of payment writes its total ("тридцать тысяч
// тенге"). Thousands are feminine (одна тысяча, две тысячи); the rest masculine.

const ONES_M = ['', 'один', 'два', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'];
const ONES_F = ['', 'одна', 'две', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'];
const TEENS = [
  'десять',
  'одиннадцать',
  'двенадцать',
  'тринадцать',
  'четырнадцать',
  'пятнадцать',
  'шестнадцать',
  'семнадцать',
  'восемнадцать',
  'девятнадцать',
];
const TENS = [
  '',
  '',
  'двадцать',
  'тридцать',
  'сорок',
  'пятьдесят',
  'шестьдесят',
  'семьдесят',
  'восемьдесят',
  'девяносто',
];
const HUNDREDS = [
  '',
  'сто',
  'двести',
  'триста',
  'четыреста',
  'пятьсот',
  'шестьсот',
  'семьсот',
  'восемьсот',
  'девятьсот',
];

/** one, few (2-4), many: the Russian plural of n. */
function plural(n: number, forms: [string, string, string]): string {
  const d = n % 10;
  const dd = n % 100;
  if (dd >= 11 && dd <= 14) return forms[2];
  if (d === 1) return forms[0];
  if (d >= 2 && d <= 4) return forms[1];
  return forms[2];
}

function triple(n: number, feminine: boolean): string[] {
  const out = [HUNDREDS[Math.floor(n / 100)]];
  const rest = n % 100;
  if (rest >= 10 && rest < 20) out.push(TEENS[rest - 10]);
  else out.push(TENS[Math.floor(rest / 10)], (feminine ? ONES_F : ONES_M)[rest % 10]);
  return out.filter(Boolean);
}

const SCALES: { forms: [string, string, string]; feminine: boolean }[] = [
  { forms: ['', '', ''], feminine: false },
  { forms: ['тысяча', 'тысячи', 'тысяч'], feminine: true },
  { forms: ['миллион', 'миллиона', 'миллионов'], feminine: false },
  { forms: ['миллиард', 'миллиарда', 'миллиардов'], feminine: false },
];

export function numberInWords(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 1e12) throw new RangeError(`${n} is not a whole number under a trillion`);
  if (n === 0) return 'ноль';
  const words: string[] = [];
  for (let i = SCALES.length - 1; i >= 0; i--) {
    const part = Math.floor(n / 1000 ** i) % 1000;
    if (!part) continue;
    words.push(...triple(part, SCALES[i].feminine));
    if (i > 0) words.push(plural(part, SCALES[i].forms));
  }
  return words.join(' ');
}

/** "Тридцать тысяч тенге 00 тиын": the total as acts write it. */
export function tengeInWords(n: number): string {
  const w = numberInWords(n);
  return `${w.charAt(0).toUpperCase()}${w.slice(1)} тенге 00 тиын`;
}
