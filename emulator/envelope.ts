// The provider's answer envelope {StatusCode, Message?, Data?} and the sign its 99... codes are written
// with. The document writes -99000001..-99000020 negative and 990000018..990000033 and 99000010 positive;
// public clients show each family with either sign (-99000018, 99000005), so a driver has to accept both
// and the emulator can be told to write them either way.

export interface Envelope {
  StatusCode: number;
  Message?: string;
  Data?: unknown;
}

export const ok = (Data?: unknown): Envelope => ({
  StatusCode: 0,
  Message: 'OK',
  ...(Data === undefined ? {} : { Data }),
});
export const fail = (StatusCode: number, Message: string): Envelope => ({ StatusCode, Message });
export const isFailure = (x: object): x is Envelope => 'StatusCode' in x;

/** `doc`: as the document writes each code; `negative` / `positive`: every 99... code with that sign. */
export const CODE_SIGNS = ['doc', 'negative', 'positive'] as const;
export type CodeSign = (typeof CODE_SIGNS)[number];

/** The 99000xxx and 990000xxx families; not -999 (unavailable), which has no other sign. */
const isNinetyNine = (code: number) => Math.abs(code) >= 99_000_000 && String(Math.abs(code)).startsWith('99');

export function signCode(code: number, sign: CodeSign): number {
  if (sign === 'doc' || !isNinetyNine(code)) return code;
  return sign === 'negative' ? -Math.abs(code) : Math.abs(code);
}

/** The envelope as it leaves the emulator, its code written with the sign it is set to. */
export function signed(e: Envelope, sign: CodeSign): Envelope {
  const StatusCode = signCode(e.StatusCode, sign);
  return StatusCode === e.StatusCode ? e : { ...e, StatusCode };
}
