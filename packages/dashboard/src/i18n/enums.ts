// The one place where the API's enum values become words (decisions 30: never a raw value in the page):
// statuses, roles, plans, where a client came from, ledger entries, event types, ... in ru, kk and en.
// Each kind is one field of the API's answers, so a word agrees with what it describes (a link is
// «активна», a team member «активен»). Pages use them through components/words.ts;
// test/unit/dashboard-words.test.ts checks each kind against the values /openapi.json lists for its field.
import { toGroupedBundle, type Words } from './table.ts';

export const ENUM_WORDS = {
  payment_status: {
    created: { ru: 'Ожидает оплаты', kk: 'Төлемді күтуде', en: 'Awaiting payment' },
    paid: { ru: 'Оплачен', kk: 'Төленді', en: 'Paid' },
    expired: { ru: 'Истёк', kk: 'Мерзімі өтті', en: 'Expired' },
    cancelled: { ru: 'Отменён', kk: 'Бас тартылды', en: 'Cancelled' },
    declined: { ru: 'Отклонён', kk: 'Қабылданбады', en: 'Declined' },
    partially_refunded: { ru: 'Частично возвращён', kk: 'Ішінара қайтарылды', en: 'Partly refunded' },
    refunded: { ru: 'Возвращён', kk: 'Қайтарылды', en: 'Refunded' },
  },
  refund_status: {
    pending: { ru: 'Ожидает', kk: 'Күтуде', en: 'Pending' },
    completed: { ru: 'Возвращён', kk: 'Қайтарылды', en: 'Refunded' },
    failed: { ru: 'Не выполнен', kk: 'Орындалмады', en: 'Failed' },
  },
  link_status: {
    active: { ru: 'Активна', kk: 'Белсенді', en: 'Active' },
    paid: { ru: 'Оплачена', kk: 'Төленді', en: 'Paid' },
    expired: { ru: 'Истекла', kk: 'Мерзімі өтті', en: 'Expired' },
    cancelled: { ru: 'Отключена', kk: 'Өшірілді', en: 'Deactivated' },
  },
  delivery_status: {
    pending: { ru: 'Ожидает', kk: 'Күтуде', en: 'Pending' },
    delivered: { ru: 'Доставлена', kk: 'Жеткізілді', en: 'Delivered' },
    failed: { ru: 'Не доставлена', kk: 'Жеткізілмеді', en: 'Failed' },
  },
  event_type: {
    'payment.completed': { ru: 'Платёж оплачен', kk: 'Төлем төленді', en: 'Payment completed' },
    'payment.cancelled': { ru: 'Платёж отменён', kk: 'Төлемнен бас тартылды', en: 'Payment cancelled' },
    'payment.expired': { ru: 'Срок платежа истёк', kk: 'Төлемнің мерзімі өтті', en: 'Payment expired' },
    'payment.refunded': { ru: 'Возврат по платежу', kk: 'Төлем қайтарылды', en: 'Payment refunded' },
    'payment_link.created': { ru: 'Ссылка создана', kk: 'Сілтеме құрылды', en: 'Link created' },
    'payment_link.updated': { ru: 'Ссылка изменена', kk: 'Сілтеме өзгертілді', en: 'Link updated' },
    'payment_link.cancelled': { ru: 'Ссылка отключена', kk: 'Сілтеме өшірілді', en: 'Link deactivated' },
    'payment_link.paid': { ru: 'Ссылка оплачена', kk: 'Сілтеме төленді', en: 'Link paid' },
    'plan.changed': { ru: 'Тариф изменён', kk: 'Тариф өзгерді', en: 'Plan changed' },
    'webhook.delivery_failed': { ru: 'Вебхук не доставлен', kk: 'Вебхук жеткізілмеді', en: 'Webhook delivery failed' },
    'webhook.auto_reactivated': { ru: 'Вебхук снова включён', kk: 'Вебхук қайта қосылды', en: 'Webhook back on' },
    'receipt.issued': { ru: 'Чек выдан', kk: 'Чек берілді', en: 'Receipt issued' },
    'receipt.failed': { ru: 'Чек не выдан', kk: 'Чек берілмеді', en: 'Receipt failed' },
    'webhook.test': { ru: 'Тестовое событие', kk: 'Тест оқиғасы', en: 'Test event' },
  },
  mode: {
    live: { ru: 'боевой', kk: 'жұмыс', en: 'live' },
    test: { ru: 'тестовый', kk: 'тест', en: 'test' },
  },
  member_role: {
    owner: { ru: 'Владелец', kk: 'Иесі', en: 'Owner' },
    admin: { ru: 'Администратор', kk: 'Әкімші', en: 'Admin' },
    accountant: { ru: 'Бухгалтер', kk: 'Бухгалтер', en: 'Accountant' },
    support: { ru: 'Поддержка', kk: 'Қолдау', en: 'Support' },
    viewer: { ru: 'Наблюдатель', kk: 'Бақылаушы', en: 'Viewer' },
    cashier: { ru: 'Кассир', kk: 'Кассир', en: 'Cashier' },
  },
  member_status: {
    invited: { ru: 'Приглашён', kk: 'Шақырылған', en: 'Invited' },
    active: { ru: 'Активен', kk: 'Белсенді', en: 'Active' },
    revoked: { ru: 'Отозван', kk: 'Кері қайтарылған', en: 'Revoked' },
  },
  ticket_status: {
    open: { ru: 'Открыто', kk: 'Ашық', en: 'Open' },
    answered: { ru: 'Есть ответ', kk: 'Жауап берілді', en: 'Answered' },
    closed: { ru: 'Закрыто', kk: 'Жабық', en: 'Closed' },
  },
  partner_status: {
    pending: { ru: 'На рассмотрении', kk: 'Қаралуда', en: 'Under review' },
    active: { ru: 'Активен', kk: 'Белсенді', en: 'Active' },
    rejected: { ru: 'Отклонён', kk: 'Қабылданбады', en: 'Rejected' },
    suspended: { ru: 'Приостановлен', kk: 'Тоқтатылды', en: 'Suspended' },
  },
  partner_client_status: {
    pending: { ru: 'Без провайдера', kk: 'Провайдерсіз', en: 'No provider yet' },
    active: { ru: 'Активен', kk: 'Белсенді', en: 'Active' },
    restricted: { ru: 'Ограничен', kk: 'Шектелген', en: 'Restricted' },
  },
  client_origin: {
    referral: { ru: 'Реферальная ссылка', kk: 'Реферал сілтеме', en: 'Referral link' },
    invite: { ru: 'Приглашение', kk: 'Шақыру', en: 'Invitation' },
    api: { ru: 'API партнёра', kk: 'Серіктес API', en: 'Partner API' },
  },
  commission_status: {
    pending: { ru: 'Ожидает', kk: 'Күтуде', en: 'Pending' },
    available: { ru: 'Доступна', kk: 'Қолжетімді', en: 'Available' },
    reversed: { ru: 'Сторнирована', kk: 'Кері қайтарылды', en: 'Reversed' },
    paid_out: { ru: 'Выплачена', kk: 'Төленді', en: 'Paid out' },
  },
  withdrawal_status: {
    confirmation_required: { ru: 'Нужен код', kk: 'Код керек', en: 'Code needed' },
    processing: { ru: 'В обработке', kk: 'Өңделуде', en: 'Processing' },
    paid: { ru: 'Выплачен', kk: 'Төленді', en: 'Paid out' },
    rejected: { ru: 'Отклонён', kk: 'Қабылданбады', en: 'Rejected' },
    cancelled: { ru: 'Отменён', kk: 'Бас тартылды', en: 'Cancelled' },
  },
  ledger_type: {
    commission: { ru: 'Начислена комиссия', kk: 'Комиссия есептелді', en: 'Commission earned' },
    release: { ru: 'Комиссия стала доступна', kk: 'Комиссия қолжетімді болды', en: 'Commission released' },
    withdrawal_hold: { ru: 'Резерв под вывод', kk: 'Шығаруға резерв', en: 'Held for a withdrawal' },
    withdrawal_release: { ru: 'Резерв вывода снят', kk: 'Шығару резерві босатылды', en: 'Withdrawal hold released' },
    withdrawal_paid: { ru: 'Вывод выплачен', kk: 'Шығару төленді', en: 'Withdrawal paid out' },
    subscription: { ru: 'Оплата тарифа клиента', kk: 'Клиент тарифін төлеу', en: "A client's plan paid" },
    adjustment: { ru: 'Корректировка', kk: 'Түзету', en: 'Adjustment' },
  },
  plan: {
    trial: { ru: 'Пробный', kk: 'Сынақ', en: 'Trial' },
    starter: { ru: 'Стартовый', kk: 'Бастапқы', en: 'Starter' },
    professional: { ru: 'Профессиональный', kk: 'Кәсіби', en: 'Professional' },
    enterprise: { ru: 'Корпоративный', kk: 'Корпоративтік', en: 'Enterprise' },
  },
  onboarding_state: {
    idle: { ru: 'Не подключён', kk: 'Қосылмаған', en: 'Not connected' },
    code_sent: { ru: 'Код отправлен', kk: 'Код жіберілді', en: 'Code sent' },
    trade_point_required: { ru: 'Выберите точку', kk: 'Нүктені таңдаңыз', en: 'Choose a trade point' },
    connected: { ru: 'Подключён', kk: 'Қосылды', en: 'Connected' },
    expired: { ru: 'Код истёк', kk: 'Кодтың мерзімі өтті', en: 'Code expired' },
    locked: { ru: 'Заблокировано', kk: 'Бұғатталды', en: 'Locked' },
    failed: { ru: 'Ошибка', kk: 'Қате', en: 'Failed' },
  },
  funnel_step: {
    link_clicks: { ru: 'Переходы', kk: 'Өтулер', en: 'Link clicks' },
    registered: { ru: 'Регистрации', kk: 'Тіркелулер', en: 'Registered' },
    provider_connected: { ru: 'Подключили провайдера', kk: 'Провайдерді қосты', en: 'Connected a provider' },
    first_live_payment: { ru: 'Первый платёж', kk: 'Алғашқы төлем', en: 'First live payment' },
    paid_subscription: { ru: 'Оплатили тариф', kk: 'Тарифті төледі', en: 'Paid a plan' },
  },
  org_type: {
    ip: { ru: 'ИП', kk: 'ЖК', en: 'Sole proprietor' },
    too: { ru: 'ТОО', kk: 'ЖШС', en: 'LLP' },
    ao: { ru: 'АО', kk: 'АҚ', en: 'JSC' },
    other: { ru: 'Другая', kk: 'Басқа', en: 'Other' },
  },
  log_actor: {
    partner: { ru: 'Партнёр', kk: 'Серіктес', en: 'Partner' },
  },
  fiscal_register_status: {
    active: { ru: 'Работает', kk: 'Жұмыс істейді', en: 'Active' },
    blocked: { ru: 'Заблокирована', kk: 'Бұғатталған', en: 'Blocked' },
    offline: { ru: 'Нет связи с ОФД', kk: 'ОФД-мен байланыс жоқ', en: 'Offline' },
    auth_failed: { ru: 'Неверный вход', kk: 'Кіру қате', en: 'Sign-in refused' },
  },
  fiscal_driver: {
    sandbox: { ru: 'Тестовая касса', kk: 'Тест кассасы', en: 'Test register' },
    webkassa: { ru: 'Webkassa', kk: 'Webkassa', en: 'Webkassa' },
    rekassa: { ru: 'reKassa', kk: 'reKassa', en: 'reKassa' },
  },
  fiscal_payment_type: {
    mobile: { ru: 'Мобильный платёж', kk: 'Мобильді төлем', en: 'Mobile payment' },
    card: { ru: 'Банковская карта', kk: 'Банк картасы', en: 'Bank card' },
  },
  receipt_status: {
    pending: { ru: 'Отправляется', kk: 'Жіберілуде', en: 'Pending' },
    issued: { ru: 'Выдан', kk: 'Берілді', en: 'Issued' },
    failed: { ru: 'Не выдан', kk: 'Берілмеді', en: 'Failed' },
  },
  receipt_kind: {
    sale: { ru: 'Продажа', kk: 'Сату', en: 'Sale' },
    return: { ru: 'Возврат', kk: 'Қайтару', en: 'Return' },
  },
} satisfies Record<string, Record<string, Words>>;

export type EnumKind = keyof typeof ENUM_WORDS;

export const enumBundle = toGroupedBundle('enum', ENUM_WORDS);
