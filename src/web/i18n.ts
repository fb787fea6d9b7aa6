// Texts of the hosted checkout in Russian (default: the language most payers in Kazakhstan read), Kazakh
// and English. The page picks ?lang=, else the browser's Accept-Language, else Russian.
export const LANGS = ['ru', 'kk', 'en'] as const;
export type Lang = (typeof LANGS)[number];

const ru = {
  title: 'Оплата',
  amountDue: 'Сумма',
  secure: 'Безопасная оплата через Tolem',
  scan: 'Отсканируйте QR-код камерой или в приложении банка',
  openApp: 'Открыть в приложении',
  waiting: 'Ожидаем оплату',
  validFor: 'QR-код действует ещё',
  minutes: 'мин',
  afterPaying: 'Уже оплатили? Обновите страницу',
  paid: 'Оплата получена',
  paidText: 'Спасибо! Платёж успешно проведён.',
  redirecting: 'Возвращаем вас в магазин…',
  backToShop: 'Вернуться в магазин',
  payAgain: 'Оплатить ещё раз',
  expired: 'Срок действия QR-кода истёк',
  expiredText: 'Получите новый QR-код, чтобы завершить оплату.',
  newQr: 'Новый QR-код',
  failed: 'Платёж не прошёл',
  failedText: 'Попробуйте ещё раз с новым QR-кодом.',
  emailTitle: 'Укажите e-mail',
  emailText: 'Продавец отправит на него чек и подтверждение оплаты.',
  emailLabel: 'E-mail',
  emailPlaceholder: 'name@example.kz',
  continue: 'Продолжить к оплате',
  badEmail: 'Проверьте адрес e-mail: например, name@example.kz',
  testBanner: 'ТЕСТОВЫЙ РЕЖИМ — деньги не списываются',
  simulate: 'Симулировать оплату',
  simulateHint: 'Только для тестовых ссылок: имитирует оплату покупателем.',
  cancel: 'Отменить и вернуться',
  support: 'Вопросы по оплате',
  notFoundTitle: 'Ссылка не найдена',
  notFoundText: 'Проверьте адрес или запросите у продавца новую ссылку на оплату.',
  inactiveTitle: 'Ссылка больше не действует',
  inactiveText: 'Срок действия ссылки истёк или продавец её отменил. Запросите новую ссылку у продавца.',
  alreadyPaidTitle: 'Эта ссылка уже оплачена',
  alreadyPaidText: 'Повторная оплата по ней невозможна.',
  unavailableTitle: 'Оплата временно недоступна',
  unavailableText: 'Попробуйте ещё раз через несколько минут.',
  tooManyTitle: 'Слишком много запросов',
  tooManyText: 'Подождите минуту и обновите страницу.',
  errorTitle: 'Что-то пошло не так',
  errorText: 'Обновите страницу или попробуйте позже.',
  language: 'Язык',
};

export type Texts = typeof ru;

const kk: Texts = {
  title: 'Төлем',
  amountDue: 'Сома',
  secure: 'Tolem арқылы қауіпсіз төлем',
  scan: 'QR-кодты камерамен немесе банк қосымшасында сканерлеңіз',
  openApp: 'Қосымшада ашу',
  waiting: 'Төлемді күтудеміз',
  validFor: 'QR-кодтың жарамдылық уақыты:',
  minutes: 'мин',
  afterPaying: 'Төлеп қойдыңыз ба? Бетті жаңартыңыз',
  paid: 'Төлем қабылданды',
  paidText: 'Рақмет! Төлем сәтті өтті.',
  redirecting: 'Сізді дүкенге қайтарып жатырмыз…',
  backToShop: 'Дүкенге оралу',
  payAgain: 'Қайта төлеу',
  expired: 'QR-кодтың мерзімі өтті',
  expiredText: 'Төлемді аяқтау үшін жаңа QR-код алыңыз.',
  newQr: 'Жаңа QR-код',
  failed: 'Төлем өтпеді',
  failedText: 'Жаңа QR-кодпен қайталап көріңіз.',
  emailTitle: 'E-mail енгізіңіз',
  emailText: 'Сатушы оған чек пен төлем растамасын жібереді.',
  emailLabel: 'E-mail',
  emailPlaceholder: 'name@example.kz',
  continue: 'Төлемге өту',
  badEmail: 'E-mail мекенжайын тексеріңіз: мысалы, name@example.kz',
  testBanner: 'СЫНАҚ РЕЖИМІ — ақша есептен шығарылмайды',
  simulate: 'Төлемді имитациялау',
  simulateHint: 'Тек сынақ сілтемелері үшін: сатып алушының төлемін имитациялайды.',
  cancel: 'Бас тарту және оралу',
  support: 'Төлем бойынша сұрақтар',
  notFoundTitle: 'Сілтеме табылмады',
  notFoundText: 'Мекенжайды тексеріңіз немесе сатушыдан жаңа төлем сілтемесін сұраңыз.',
  inactiveTitle: 'Сілтеме енді жарамсыз',
  inactiveText: 'Сілтеменің мерзімі өтті немесе сатушы оны жойды. Сатушыдан жаңа сілтеме сұраңыз.',
  alreadyPaidTitle: 'Бұл сілтеме бойынша төлем жасалған',
  alreadyPaidText: 'Ол бойынша қайта төлеу мүмкін емес.',
  unavailableTitle: 'Төлем уақытша қолжетімсіз',
  unavailableText: 'Бірнеше минуттан кейін қайталап көріңіз.',
  tooManyTitle: 'Сұраулар тым көп',
  tooManyText: 'Бір минут күтіп, бетті жаңартыңыз.',
  errorTitle: 'Бірдеңе дұрыс болмады',
  errorText: 'Бетті жаңартыңыз немесе кейінірек қайталап көріңіз.',
  language: 'Тіл',
};

const en: Texts = {
  title: 'Payment',
  amountDue: 'Amount',
  secure: 'Secure payment by Tolem',
  scan: 'Scan the QR code with your camera or banking app',
  openApp: 'Open in the app',
  waiting: 'Waiting for payment',
  validFor: 'QR code valid for',
  minutes: 'min',
  afterPaying: 'Already paid? Refresh this page',
  paid: 'Payment received',
  paidText: 'Thank you! Your payment went through.',
  redirecting: 'Taking you back to the shop…',
  backToShop: 'Back to the shop',
  payAgain: 'Pay again',
  expired: 'The QR code has expired',
  expiredText: 'Get a new QR code to finish paying.',
  newQr: 'New QR code',
  failed: 'The payment did not go through',
  failedText: 'Try again with a new QR code.',
  emailTitle: 'Enter your e-mail',
  emailText: 'The seller sends the receipt and payment confirmation there.',
  emailLabel: 'E-mail',
  emailPlaceholder: 'name@example.com',
  continue: 'Continue to payment',
  badEmail: 'Check the e-mail address, e.g. name@example.com',
  testBanner: 'TEST MODE — no money moves',
  simulate: 'Simulate payment',
  simulateHint: 'Test links only: acts as the customer paying.',
  cancel: 'Cancel and go back',
  support: 'Questions about the payment',
  notFoundTitle: 'Link not found',
  notFoundText: 'Check the address or ask the seller for a new payment link.',
  inactiveTitle: 'This link is no longer active',
  inactiveText: 'It has expired or the seller cancelled it. Ask the seller for a new link.',
  alreadyPaidTitle: 'This link has already been paid',
  alreadyPaidText: 'It cannot be paid again.',
  unavailableTitle: 'Payments are temporarily unavailable',
  unavailableText: 'Please try again in a few minutes.',
  tooManyTitle: 'Too many requests',
  tooManyText: 'Wait a minute and refresh the page.',
  errorTitle: 'Something went wrong',
  errorText: 'Refresh the page or try again later.',
  language: 'Language',
};

export const TEXTS: Record<Lang, Texts> = { ru, kk, en };

/** ?lang= wins; else the first supported language of Accept-Language (q order); else Russian. */
export function pickLang(query: unknown, acceptLanguage: string | undefined): Lang {
  if (typeof query === 'string' && (LANGS as readonly string[]).includes(query)) return query as Lang;
  const wanted = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())).find(Boolean);
      return { lang: tag.toLowerCase().split('-')[0], q: q ? Number(q[1]) : 1 };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q);
  const hit = wanted.find((x) => (LANGS as readonly string[]).includes(x.lang));
  return (hit?.lang as Lang) ?? 'ru';
}
