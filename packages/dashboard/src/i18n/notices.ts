// Notification titles and bodies in the reader's language (decisions 30). The server keeps what happened
// (a type and its params, src/domain/notifications/kinds.ts); these words say it, `{{param}}` filled in
// already worded (a plan's name, a date in words, «30 дней»: pages/merchant/notice-text.ts). A kind with
// variants has `title_<variant>` or `body_<variant>` (i18next's context). A kind without a body here
// shows its stored body: a support answer is the supporter's own text.
import { toGroupedBundle, type Words } from './table.ts';

const WEBHOOK_AFTER = {
  ru: 'Ожидающие доставки ждут; успешный тест или повтор либо кнопка «Включить» снова его включат.',
  kk: 'Күтудегі жеткізулер сақталады; сәтті тест не қайталау немесе «Қосу» батырмасы оны қайта қосады.',
  en: 'Pending deliveries wait; a successful test or retry, or Switch on, switches it back on.',
};

export const NOTICE_WORDS: Record<string, Record<string, Words>> = {
  'webhook.disabled': {
    title: { ru: 'Вебхук выключен', kk: 'Вебхук өшірілді', en: 'Webhook switched off' },
    body_gone: {
      ru: `Вебхук {{url}} ({{mode}} режим) выключен: его адрес ответил 410 Gone. ${WEBHOOK_AFTER.ru}`,
      kk: `{{url}} вебхугы ({{mode}} режимі) өшірілді: оның мекенжайы 410 Gone деп жауап берді. ${WEBHOOK_AFTER.kk}`,
      en: `The webhook {{url}} ({{mode}} mode) was switched off: its endpoint answered 410 Gone. ${WEBHOOK_AFTER.en}`,
    },
    body_failing: {
      ru: `Вебхук {{url}} ({{mode}} режим) выключен: доставки не проходят с {{failing_since}}. ${WEBHOOK_AFTER.ru}`,
      kk:
        `{{url}} вебхугы ({{mode}} режимі) өшірілді: жеткізулер {{failing_since}} күнінен бастап өтпей жатыр. ` +
        WEBHOOK_AFTER.kk,
      en:
        `The webhook {{url}} ({{mode}} mode) was switched off: its deliveries have been failing since ` +
        `{{failing_since}}. ${WEBHOOK_AFTER.en}`,
    },
  },
  'plan.limit_reached': {
    title: { ru: 'Месячный лимит исчерпан', kk: 'Айлық лимит таусылды', en: 'Monthly limit reached' },
    body: {
      ru:
        'Боевых платежей за {{month}}: {{limit}} из {{limit}} по тарифу «{{plan}}». Новые боевые платежи не ' +
        'принимаются до следующего месяца или до перехода на тариф побольше.',
      kk:
        '«{{plan}}» тарифінің айлық лимиті таусылды ({{month}}: {{limit}} жұмыс төлемі). Жаңа жұмыс төлемдері ' +
        'келесі айға дейін немесе үлкенірек тарифке өткенше қабылданбайды.',
      en:
        'Live payments in {{month}}: {{limit}} of {{limit}} on the {{plan}} plan. New live payments are refused ' +
        'until next month or until you move to a larger plan.',
    },
  },
  'plan.limit_near': {
    title: {
      ru: 'Месячный лимит почти исчерпан',
      kk: 'Айлық лимит таусылуға жақын',
      en: 'Monthly limit nearly reached',
    },
    body: {
      ru: 'Боевых платежей за {{month}}: {{used}} из {{limit}} по тарифу «{{plan}}».',
      kk: '{{month}}: «{{plan}}» тарифі бойынша {{limit}} жұмыс төлемінің {{used}} пайдаланылды.',
      en: 'Live payments in {{month}}: {{used}} of {{limit}} on the {{plan}} plan.',
    },
  },
  'trial.ending': {
    title: { ru: 'Пробный период скоро закончится', kk: 'Сынақ кезеңі жақында аяқталады', en: 'Your trial ends soon' },
    body: {
      ru:
        'Пробный период закончится {{ends_at}}. Выберите тариф, чтобы и дальше принимать боевые платежи; ' +
        'тестовый режим продолжит работать.',
      kk:
        'Сынақ кезеңі {{ends_at}} күні аяқталады. Жұмыс төлемдерін қабылдай беру үшін тариф таңдаңыз; тест ' +
        'режимі жұмысын жалғастырады.',
      en: 'The trial ends on {{ends_at}}. Choose a plan to keep taking live payments; test mode keeps working.',
    },
  },
  'plan.expiring': {
    title: { ru: 'Тариф скоро закончится', kk: 'Тариф жақында аяқталады', en: 'Your plan expires soon' },
    body: {
      ru: 'Тариф «{{plan}}» действует до {{ends_at}}. Продлите его, чтобы и дальше принимать боевые платежи.',
      kk: '«{{plan}}» тарифі {{ends_at}} күнге дейін жарамды. Жұмыс төлемдерін қабылдай беру үшін оны ұзартыңыз.',
      en: 'The {{plan}} plan expires on {{ends_at}}. Renew it to keep taking live payments.',
    },
  },
  'plan.changed': {
    title: {
      ru: 'Тариф «{{plan}}» действует до {{expires_at}}',
      kk: '«{{plan}}» тарифі {{expires_at}} күнге дейін жарамды',
      en: 'The {{plan}} plan is active until {{expires_at}}',
    },
    body_extended: {
      ru: 'Тариф «{{plan}}» продлён на {{days}}.',
      kk: '«{{plan}}» тарифі ұзартылды: тағы {{days}}.',
      en: 'The {{plan}} plan is extended by {{days}}.',
    },
    body_replaced: {
      ru: 'Тариф «{{plan}}» с этого момента заменил тариф «{{previous_plan}}», на {{days}}.',
      kk: '«{{plan}}» тарифі қазірден бастап «{{previous_plan}}» тарифінің орнына қосылды, мерзімі: {{days}}.',
      en: 'The {{plan}} plan replaces {{previous_plan}} from now, for {{days}}.',
    },
  },
  'ticket.answered': {
    title: {
      ru: 'Поддержка ответила: {{subject}}',
      kk: 'Қолдау қызметі жауап берді: {{subject}}',
      en: 'Support answered: {{subject}}',
    },
  },
  'provider.certificate_expiring': {
    title_expires: {
      ru: 'Сертификат аккаунта провайдера «{{account}}» истекает {{expires_at}}',
      kk: '«{{account}}» провайдер аккаунтының сертификаты {{expires_at}} күні бітеді',
      en: 'The provider certificate of "{{account}}" expires on {{expires_at}}',
    },
    title_expired: {
      ru: 'Сертификат аккаунта провайдера «{{account}}» истёк {{expires_at}}',
      kk: '«{{account}}» провайдер аккаунтының сертификаты {{expires_at}} күні бітті',
      en: 'The provider certificate of "{{account}}" expired on {{expires_at}}',
    },
    body: {
      ru:
        'Запросите у провайдера новый клиентский сертификат и переподключите аккаунт до этой даты: после неё ' +
        'боевые платежи через него прекратятся.',
      kk:
        'Провайдерден жаңа клиенттік сертификат сұрап, аккаунтты осы күнге дейін қайта қосыңыз: одан кейін ол ' +
        'арқылы жұмыс төлемдері тоқтайды.',
      en:
        'Request a new client certificate from the provider and reconnect the account before then; live payments ' +
        'through it stop when it expires.',
    },
  },
  'provider.session_expired': {
    title: {
      ru: 'Аккаунт провайдера «{{account}}» требует внимания',
      kk: '«{{account}}» провайдер аккаунты назар аударуды қажет етеді',
      en: 'Provider account "{{account}}" needs attention',
    },
    body: {
      ru:
        'Провайдер отклонил его учётные данные, сертификат, торговую точку или устройство. Боевые платежи через ' +
        'него не пройдут, пока аккаунт не переподключён.',
      kk:
        'Провайдер оның тіркелгі деректерін, сертификатын, сауда нүктесін немесе құрылғысын қабылдамады. Аккаунт ' +
        'қайта қосылмайынша, ол арқылы жұмыс төлемдері өтпейді.',
      en:
        'The provider refused its credentials, certificate, trade point or device. Live payments through it fail ' +
        'until it is reconnected.',
    },
  },
  'provider.unreachable': {
    title: {
      ru: 'Провайдер не принимает запросы аккаунта «{{account}}»',
      kk: 'Провайдер «{{account}}» аккаунтының сұрауларын қабылдамайды',
      en: 'Provider account "{{account}}" is refused by the provider',
    },
    body: {
      ru:
        'Провайдер отклонил адрес этого сервера: он принимает запросы только с разрешённого статического IP. ' +
        'Боевые платежи через этот аккаунт не пройдут, пока сервер не начнёт отправлять запросы с этого адреса ' +
        'или провайдер не добавит новый; затем запустите проверку аккаунта.',
      kk:
        'Провайдер бұл сервердің мекенжайын қабылдамады: ол тек рұқсат етілген статикалық IP мекенжайынан сұрау ' +
        'қабылдайды. Сервер сол мекенжайдан жібере бастамайынша немесе провайдер жаңасын қоспайынша, бұл аккаунт ' +
        'арқылы жұмыс төлемдері өтпейді; содан кейін аккаунтты тексеріңіз.',
      en:
        "The provider refused this server's address: it answers only the static IP it allow-listed. Live payments " +
        'through this account fail until the server sends from that address or the provider adds this one; then ' +
        'run its health check.',
    },
  },
  'fiscal.register_trouble': {
    title: {
      ru: 'Касса «{{register}}» не выдаёт чеки',
      kk: '«{{register}}» кассасы чек бермейді',
      en: 'Cash register "{{register}}" cannot issue receipts',
    },
    body_blocked: {
      ru:
        'Сервис кассы сообщил, что касса заблокирована или не активна. Решите это с сервисом, затем повторите ' +
        'невыданные чеки.',
      kk:
        'Касса сервисі касса бұғатталған немесе белсенді емес екенін хабарлады. Мәселені сервиспен шешіп, ' +
        'берілмеген чектерді қайталаңыз.',
      en:
        'The cash-register service says the register is blocked or not active. Resolve it with the service, then ' +
        'retry the failed receipts.',
    },
    body_credentials: {
      ru:
        'Сервис кассы отклонил её учётные данные. Обновите их в настройках фискализации, затем повторите ' +
        'невыданные чеки.',
      kk:
        'Касса сервисі оның тіркелгі деректерін қабылдамады. Оларды фискализация баптауларында жаңартып, ' +
        'берілмеген чектерді қайталаңыз.',
      en:
        'The cash-register service refused its credentials. Update them in the fiscal settings, then retry the ' +
        'failed receipts.',
    },
    body_offline: {
      ru: 'Касса работает без связи с ОФД больше 72 часов и не принимает чеки, пока данные не дойдут до ОФД.',
      kk: 'Касса ФДО-мен байланыссыз 72 сағаттан астам жұмыс істейді және деректер ФДО-ға жеткенше чек қабылдамайды.',
      en:
        'The register has been offline for more than 72 hours and refuses receipts until its data reach the ' +
        'fiscal data operator.',
    },
  },
  'fiscal.receipt_failed': {
    title: {
      ru: 'Чек по платежу {{operation_id}} не выдан',
      kk: '{{operation_id}} төлемі бойынша чек берілмеді',
      en: 'A receipt for payment {{operation_id}} was not issued',
    },
    body: {
      ru: 'Касса не выдала чек ({{error}}). Устраните причину и повторите его на странице чеков.',
      kk: 'Касса чек бермеді ({{error}}). Себебін жойып, чектер бетінде қайталаңыз.',
      en: 'The register did not issue it ({{error}}). Fix the cause, then retry it from the receipts page.',
    },
  },
  'partner.active': {
    title: {
      ru: 'Партнёрская программа: заявка одобрена',
      kk: 'Серіктестік бағдарлама: өтінім мақұлданды',
      en: 'Partner programme: approved',
    },
    body: {
      ru: 'Партнёрский профиль активен: создайте реферальную ссылку или пригласите клиентов в разделе «Партнёрам».',
      kk: 'Серіктес профилі белсенді: «Серіктестерге» бөлімінде реферал сілтеме жасаңыз немесе клиенттерді шақырыңыз.',
      en: 'Your partner profile is active: make a referral link or invite clients in the partner section.',
    },
  },
  'partner.rejected': {
    title: {
      ru: 'Партнёрская программа: заявка не одобрена',
      kk: 'Серіктестік бағдарлама: өтінім мақұлданбады',
      en: 'Partner programme: not approved',
    },
    body: {
      ru: 'Ваша заявка на участие в партнёрской программе не одобрена.',
      kk: 'Серіктестік бағдарламаға қатысу өтініміңіз мақұлданбады.',
      en: 'Your partner application was not approved.',
    },
  },
  'partner.suspended': {
    title: {
      ru: 'Партнёрская программа: профиль приостановлен',
      kk: 'Серіктестік бағдарлама: профиль тоқтатылды',
      en: 'Partner programme: suspended',
    },
    body: {
      ru: 'Партнёрский профиль приостановлен: его ключи и сеансы в кабинетах клиентов остановлены.',
      kk: 'Серіктес профилі тоқтатылды: оның кілттері мен клиенттер кабинеттеріндегі сеанстары тоқтатылды.',
      en: "Your partner profile is suspended: its keys and its sessions in clients' accounts have stopped.",
    },
  },
};

export const noticeBundle = toGroupedBundle('notice', NOTICE_WORDS);
