// The OFDs (fiscal data operators) a register can be attached to, with the codes Webkassa answers in
// Cashbox.Ofd.Code and the buyer's check page each one serves (research section 6). COMRUN is reKassa's
// own OFD; Webkassa has no code for it, so the emulator gives it 5.
export interface Ofd {
  code: number;
  name: string;
  nameKz: string;
  nameEn: string;
  /** as Webkassa's Cashbox.Ofd.Host writes it: the check page without its scheme */
  host: string;
  /** the check page the TicketUrl starts with */
  consumerUrl: string;
}

export const OFDS: Record<number, Ofd> = {
  1: {
    code: 1,
    name: 'АО "Казахтелеком"',
    nameKz: '"Қазақтелеком" АҚ',
    nameEn: 'Kazakhtelecom JSC',
    host: 'consumer.oofd.kz',
    consumerUrl: 'http://consumer.oofd.kz',
  },
  2: {
    code: 2,
    name: 'АО "Транстелеком"',
    nameKz: '"Транстелеком" АҚ',
    nameEn: 'Transtelecom JSC',
    host: 'ofd1.kz/t/',
    consumerUrl: 'https://ofd1.kz/t/',
  },
  3: {
    code: 3,
    name: 'ТОО "KazTransCom" (KOFD)',
    nameKz: '"KazTransCom" ЖШС (KOFD)',
    nameEn: 'KazTransCom LLP (KOFD)',
    host: 'consumer.kofd.kz',
    consumerUrl: 'http://consumer.kofd.kz',
  },
  4: {
    code: 4,
    name: 'ТОО "Smartcontract" (WOFD)',
    nameKz: 'ЖШС "Smartcontract" (WOFD)',
    nameEn: 'ТОО "Smartcontract" (WOFD)',
    host: 'cabinet.wofd.kz/consumer',
    consumerUrl: 'http://cabinet.wofd.kz/consumer',
  },
  5: {
    code: 5,
    name: 'ТОО "COMRUN"',
    nameKz: '"COMRUN" ЖШС',
    nameEn: 'COMRUN LLP',
    host: 'ofd.rekassa.kz',
    consumerUrl: 'https://ofd.rekassa.kz',
  },
};

/** The buyer's check link: `<OFD page>?i=<fiscal sign>&f=<РНМ>&s=<total .2f>&t=<yyyyMMddTHHmmss>`. */
export function ticketUrl(ofd: Ofd, sign: string, rnm: string, totalTiyn: number, ofdTime: string): string {
  return `${ofd.consumerUrl}?i=${sign}&f=${rnm}&s=${(totalTiyn / 100).toFixed(2)}&t=${ofdTime}`;
}
