// The dashboard's own words for every error the API can answer (its table is src/errors.ts) and for the
// SDK's own (no connection, a time-out), in ru, kk and en (decisions 30): a Russian page never shows the
// server's English message. `unknown` covers anything else (a proxy's bare 502). ErrorAlert shows them;
// test/unit/dashboard-words.test.ts fails when a server code has no words here.
import { toBundle, type Words } from './table.ts';

export const ERROR_WORDS: Record<string, Words> = {
  // 400
  invalid_parameter: {
    ru: 'Проверьте введённые данные: одно из полей заполнено неверно.',
    kk: 'Енгізілген деректерді тексеріңіз: бір өріс қате толтырылған.',
    en: 'Check what you entered: one of the fields is not valid.',
  },
  invalid_json: {
    ru: 'Запрос не удалось прочитать. Обновите страницу и попробуйте снова.',
    kk: 'Сұрауды оқу мүмкін болмады. Бетті жаңартып, қайталап көріңіз.',
    en: 'The request could not be read. Reload the page and try again.',
  },
  idempotency_key_required: {
    ru: 'Запрос отправлен без ключа повтора. Обновите страницу и попробуйте снова.',
    kk: 'Сұрау қайталау кілтінсіз жіберілді. Бетті жаңартып, қайталап көріңіз.',
    en: 'The request was sent without its idempotency key. Reload the page and try again.',
  },
  unknown_event: {
    ru: 'Такого типа события нет.',
    kk: 'Мұндай оқиға түрі жоқ.',
    en: 'There is no such event type.',
  },
  bad_color: {
    ru: 'Цвет указывается как #RRGGBB, например #1A7F5A.',
    kk: 'Түс #RRGGBB түрінде жазылады, мысалы #1A7F5A.',
    en: 'Give the colour as #RRGGBB, e.g. #1A7F5A.',
  },
  bad_email: {
    ru: 'Проверьте адрес эл. почты.',
    kk: 'Эл. пошта мекенжайын тексеріңіз.',
    en: 'Check the e-mail address.',
  },
  invalid_cursor: {
    ru: 'Список изменился. Обновите страницу.',
    kk: 'Тізім өзгерді. Бетті жаңартыңыз.',
    en: 'The list has changed. Reload the page.',
  },
  invalid_limit: {
    ru: 'Недопустимый размер страницы списка. Обновите страницу.',
    kk: 'Тізім бетінің өлшемі жарамсыз. Бетті жаңартыңыз.',
    en: 'That list page size is not allowed. Reload the page.',
  },
  limit_too_large: {
    ru: 'Запрошено слишком много записей за раз.',
    kk: 'Бір мезгілде тым көп жазба сұралды.',
    en: 'Too many records were asked for at once.',
  },
  invalid_phone: {
    ru: 'Проверьте номер телефона, например +7 701 123 45 67.',
    kk: 'Телефон нөмірін тексеріңіз, мысалы +7 701 123 45 67.',
    en: 'Check the phone number, e.g. +7 701 123 45 67.',
  },
  refund_amount_exceeds: {
    ru: 'Сумма больше той, что ещё можно вернуть.',
    kk: 'Сома әлі қайтаруға болатын сомадан көп.',
    en: 'The amount is more than what can still be refunded.',
  },
  otp_invalid: {
    ru: 'Неверный код. Проверьте его и введите ещё раз.',
    kk: 'Код қате. Тексеріп, қайта енгізіңіз.',
    en: 'The code is not right. Check it and enter it again.',
  },
  otp_expired: {
    ru: 'Срок действия кода истёк. Запросите новый.',
    kk: 'Кодтың мерзімі өтті. Жаңасын сұраңыз.',
    en: 'The code has expired. Ask for a new one.',
  },
  withdrawal_below_minimum: {
    ru: 'Сумма меньше минимальной суммы вывода.',
    kk: 'Сома шығарудың ең аз сомасынан кем.',
    en: 'The amount is below the minimum withdrawal.',
  },
  confirmation_invalid: {
    ru: 'Неверный код подтверждения.',
    kk: 'Растау коды қате.',
    en: 'The confirmation code is not right.',
  },
  provider_not_enabled: {
    ru: 'Этот способ подключения провайдера на сервере не включён.',
    kk: 'Провайдерді қосудың бұл тәсілі серверде қосылмаған.',
    en: 'This way of connecting the provider is not enabled on the server.',
  },
  service_unavailable: {
    ru: 'Сервис ненадолго недоступен. Повторите через несколько секунд: повтор ничего не создаст дважды.',
    kk: 'Қызмет уақытша қолжетімсіз. Бірнеше секундтан кейін қайталаңыз: қайталау ештеңені екі рет жасамайды.',
    en: 'The service is briefly unavailable. Try again in a few seconds: a retry creates nothing twice.',
  },
  cannot_disable_self: {
    ru: 'Нельзя отключить собственный аккаунт администратора.',
    kk: 'Әкімшінің өз аккаунтын өшіруге болмайды.',
    en: "You cannot disable the administrator's own account.",
  },
  cannot_disable_platform_client: {
    ru: 'Нельзя отключить аккаунт платформы: через него принимаются оплаты тарифов.',
    kk: 'Платформа аккаунтын өшіруге болмайды: тарифтердің төлемдері ол арқылы қабылданады.',
    en: 'The platform account cannot be disabled: plan payments are taken through it.',
  },
  invite_invalid: {
    ru: 'Приглашение недействительно: оно уже использовано, отозвано или истекло.',
    kk: 'Шақыру жарамсыз: ол қолданылған, кері қайтарылған немесе мерзімі өткен.',
    en: 'The invitation is not valid: it was used, revoked or has expired.',
  },
  reset_token_invalid: {
    ru: 'Ссылка для сброса пароля недействительна или уже использована. Запросите новую.',
    kk: 'Құпиясөзді қалпына келтіру сілтемесі жарамсыз немесе қолданылған. Жаңасын сұраңыз.',
    en: 'This password reset link is not valid or was already used. Ask for a new one.',
  },
  reset_token_expired: {
    ru: 'Срок действия ссылки истёк (30 минут). Запросите новую.',
    kk: 'Сілтеменің мерзімі өтті (30 минут). Жаңасын сұраңыз.',
    en: 'This link has expired (30 minutes). Ask for a new one.',
  },
  // 401
  invalid_api_key: {
    ru: 'Неверный API-ключ.',
    kk: 'API кілті қате.',
    en: 'The API key is not valid.',
  },
  invalid_token: {
    ru: 'Сеанс недействителен. Войдите снова.',
    kk: 'Сеанс жарамсыз. Қайта кіріңіз.',
    en: 'Your session is not valid. Sign in again.',
  },
  token_expired: {
    ru: 'Сеанс истёк. Войдите снова.',
    kk: 'Сеанстың мерзімі өтті. Қайта кіріңіз.',
    en: 'Your session has expired. Sign in again.',
  },
  token_revoked: {
    ru: 'Сеанс завершён. Войдите снова.',
    kk: 'Сеанс аяқталды. Қайта кіріңіз.',
    en: 'Your session was ended. Sign in again.',
  },
  invalid_credentials: {
    ru: 'Неверная эл. почта или пароль.',
    kk: 'Эл. пошта немесе құпиясөз қате.',
    en: 'Wrong e-mail or password.',
  },
  impersonation_session_expired: {
    ru: 'Время работы в кабинете клиента истекло. Войдите в него снова.',
    kk: 'Клиент кабинетіндегі жұмыс уақыты бітті. Оған қайта кіріңіз.',
    en: "Your time in the client's cabinet is over. Enter it again.",
  },
  // 403
  impersonation_blocked_action: {
    ru: 'Партнёру в кабинете клиента это действие недоступно.',
    kk: 'Клиент кабинетіндегі серіктеске бұл әрекет қолжетімсіз.',
    en: "A partner in a client's cabinet may not do this.",
  },
  not_owner: {
    ru: 'Это может сделать только владелец аккаунта.',
    kk: 'Мұны тек аккаунт иесі жасай алады.',
    en: "Only the account's owner can do this.",
  },
  forbidden_role: {
    ru: 'Вашей роли это действие недоступно.',
    kk: 'Сіздің рөліңізге бұл әрекет қолжетімсіз.',
    en: 'Your role does not allow this.',
  },
  plan_inactive: {
    ru: 'Тариф не активен: выберите тариф, чтобы принимать боевые платежи.',
    kk: 'Тариф белсенді емес: нақты төлемдерді қабылдау үшін тариф таңдаңыз.',
    en: 'Your plan is not active: choose a plan to take live payments.',
  },
  test_mode_only: {
    ru: 'Это доступно только с тестовыми данными.',
    kk: 'Бұл тек тест деректерімен қолжетімді.',
    en: 'This is available with test data only.',
  },
  cross_site_request: {
    ru: 'Запрос отклонён: он пришёл с другого сайта.',
    kk: 'Сұрау қабылданбады: ол басқа сайттан келді.',
    en: 'The request was refused: it came from another site.',
  },
  account_disabled: {
    ru: 'Аккаунт отключён оператором. Напишите в поддержку.',
    kk: 'Аккаунтты оператор өшірген. Қолдау қызметіне жазыңыз.',
    en: 'The operator has disabled this account. Contact support.',
  },
  partner_not_active: {
    ru: 'Партнёрский кабинет откроется после одобрения заявки.',
    kk: 'Серіктес кабинеті өтінім мақұлданғаннан кейін ашылады.',
    en: 'The partner cabinet opens once your application is approved.',
  },
  client_not_managed: {
    ru: 'Это доступно только для клиентов, созданных через API партнёра.',
    kk: 'Бұл тек серіктес API арқылы құрылған клиенттерге қолжетімді.',
    en: 'This is only for clients created through the partner API.',
  },
  current_password_wrong: {
    ru: 'Текущий пароль указан неверно.',
    kk: 'Ағымдағы құпиясөз қате.',
    en: 'The current password is not right.',
  },
  // 404
  not_found: { ru: 'Не найдено.', kk: 'Табылмады.', en: 'Not found.' },
  payment_link_not_found: {
    ru: 'Платёжная ссылка не найдена.',
    kk: 'Төлем сілтемесі табылмады.',
    en: 'Payment link not found.',
  },
  merchant_not_found: { ru: 'Магазин не найден.', kk: 'Дүкен табылмады.', en: 'Shop not found.' },
  client_not_found: { ru: 'Клиент не найден.', kk: 'Клиент табылмады.', en: 'Client not found.' },
  payment_not_found: { ru: 'Платёж не найден.', kk: 'Төлем табылмады.', en: 'Payment not found.' },
  webhook_not_found: { ru: 'Вебхук не найден.', kk: 'Вебхук табылмады.', en: 'Webhook not found.' },
  delivery_not_found: { ru: 'Доставка не найдена.', kk: 'Жеткізу табылмады.', en: 'Delivery not found.' },
  member_not_found: {
    ru: 'Участник команды не найден.',
    kk: 'Команда мүшесі табылмады.',
    en: 'Team member not found.',
  },
  provider_account_not_found: {
    ru: 'Аккаунт провайдера не найден.',
    kk: 'Провайдер аккаунты табылмады.',
    en: 'Provider account not found.',
  },
  partner_not_found: { ru: 'Партнёр не найден.', kk: 'Серіктес табылмады.', en: 'Partner not found.' },
  referral_link_not_found: {
    ru: 'Реферальная ссылка не найдена.',
    kk: 'Реферал сілтеме табылмады.',
    en: 'Referral link not found.',
  },
  withdrawal_not_found: {
    ru: 'Вывод средств не найден.',
    kk: 'Қаражат шығару табылмады.',
    en: 'Withdrawal not found.',
  },
  ticket_not_found: { ru: 'Обращение не найдено.', kk: 'Өтініш табылмады.', en: 'Ticket not found.' },
  catalog_item_not_found: {
    ru: 'Позиция каталога не найдена.',
    kk: 'Каталог позициясы табылмады.',
    en: 'Catalog item not found.',
  },
  counter_not_found: {
    ru: 'Касса не найдена: её удалили или она в другом режиме.',
    kk: 'Касса табылмады: ол жойылған немесе басқа режимде.',
    en: 'Counter not found: it was removed or belongs to the other mode.',
  },
  // 405, 408, 410, 413, 415, 431
  method_not_allowed: {
    ru: 'Это действие здесь недоступно.',
    kk: 'Бұл әрекет мұнда қолжетімсіз.',
    en: 'This action is not available here.',
  },
  gone: {
    ru: 'Этой возможности больше нет.',
    kk: 'Бұл мүмкіндік енді жоқ.',
    en: 'This is no longer available.',
  },
  request_timeout: {
    ru: 'Сервер не дождался запроса. Попробуйте снова.',
    kk: 'Сервер сұрауды күтіп үлгермеді. Қайталап көріңіз.',
    en: 'The server gave up waiting for the request. Try again.',
  },
  payload_too_large: {
    ru: 'Слишком большой объём данных.',
    kk: 'Деректер көлемі тым үлкен.',
    en: 'Too much data in one request.',
  },
  unsupported_media_type: {
    ru: 'Запрос в неподдерживаемом формате. Обновите страницу.',
    kk: 'Сұрау қолдау көрсетілмейтін форматта. Бетті жаңартыңыз.',
    en: "The request's format is not supported. Reload the page.",
  },
  headers_too_large: {
    ru: 'Заголовки запроса слишком велики. Обновите страницу или очистите данные сайта.',
    kk: 'Сұрау тақырыптары тым үлкен. Бетті жаңартыңыз немесе сайт деректерін тазалаңыз.',
    en: "The request's headers are too large. Reload the page or clear the site's data.",
  },
  // 409
  idempotency_conflict: {
    ru: 'Этот запрос уже выполняется или был отправлен с другими данными. Обновите страницу.',
    kk: 'Бұл сұрау орындалуда немесе басқа деректермен жіберілген. Бетті жаңартыңыз.',
    en: 'This request is already running or was sent with other data. Reload the page.',
  },
  payment_link_immutable: {
    ru: 'Эту ссылку уже нельзя изменить.',
    kk: 'Бұл сілтемені енді өзгертуге болмайды.',
    en: 'This link can no longer be changed.',
  },
  payment_link_not_active: { ru: 'Ссылка не активна.', kk: 'Сілтеме белсенді емес.', en: 'The link is not active.' },
  payment_link_already_paid: {
    ru: 'Ссылка уже оплачена.',
    kk: 'Сілтеме төленіп қойған.',
    en: 'The link is already paid.',
  },
  payment_link_not_repeatable: {
    ru: 'Плакат можно распечатать только для многоразовой ссылки.',
    kk: 'Плакатты тек көп рет қолданылатын сілтеме үшін басып шығаруға болады.',
    en: 'A poster can be printed only for a reusable link.',
  },
  trial_already_used: {
    ru: 'Пробный период уже использован.',
    kk: 'Сынақ кезеңі қолданылып қойған.',
    en: 'The trial was already used.',
  },
  email_taken: {
    ru: 'Эта эл. почта уже зарегистрирована. Войдите или восстановите пароль.',
    kk: 'Бұл эл. пошта тіркелген. Кіріңіз немесе құпиясөзді қалпына келтіріңіз.',
    en: 'This e-mail is already registered. Sign in or reset the password.',
  },
  payment_not_cancellable: {
    ru: 'Этот платёж уже нельзя отменить.',
    kk: 'Бұл төлемнен енді бас тартуға болмайды.',
    en: 'This payment can no longer be cancelled.',
  },
  payment_not_refundable: {
    ru: 'Этот платёж нельзя вернуть: он не оплачен или уже возвращён полностью.',
    kk: 'Бұл төлемді қайтаруға болмайды: ол төленбеген немесе толық қайтарылған.',
    en: 'This payment cannot be refunded: it is not paid, or it is refunded in full.',
  },
  payment_not_pending: {
    ru: 'Платёж уже не ожидает оплаты.',
    kk: 'Төлем енді төлемді күтпейді.',
    en: 'The payment is no longer awaiting payment.',
  },
  provider_not_connected: {
    ru: 'Провайдер не подключён. Подключите его на странице «Подключение провайдера».',
    kk: 'Провайдер қосылмаған. Оны «Провайдерді қосу» бетінде қосыңыз.',
    en: 'No provider is connected. Connect one on the Provider connection page.',
  },
  insufficient_balance: {
    ru: 'На балансе недостаточно средств.',
    kk: 'Баланста қаражат жеткіліксіз.',
    en: 'The balance is not enough.',
  },
  webhook_limit_reached: {
    ru: 'Достигнуто наибольшее число вебхуков.',
    kk: 'Вебхуктар санының шегіне жеттіңіз.',
    en: 'You have reached the most webhooks allowed.',
  },
  delivery_in_progress: {
    ru: 'Доставка уже выполняется. Подождите немного.',
    kk: 'Жеткізу орындалуда. Сәл күтіңіз.',
    en: 'The delivery is already in progress. Wait a moment.',
  },
  owner_immutable: {
    ru: 'Роль владельца нельзя изменить, а владельца нельзя удалить.',
    kk: 'Иесінің рөлін өзгертуге де, иесін жоюға да болмайды.',
    en: "The owner's role cannot be changed, and the owner cannot be removed.",
  },
  already_connected: {
    ru: 'Провайдер уже подключён.',
    kk: 'Провайдер қосылып қойған.',
    en: 'The provider is already connected.',
  },
  sandbox_account_required: {
    ru: 'Нужен тестовый аккаунт провайдера.',
    kk: 'Провайдердің тест аккаунты керек.',
    en: 'A test provider account is needed.',
  },
  default_account: {
    ru: 'Основной аккаунт нельзя удалить или отключить: сначала сделайте основным другой.',
    kk: 'Негізгі аккаунтты жоюға немесе өшіруге болмайды: алдымен басқасын негізгі етіңіз.',
    en: 'The default account cannot be removed or switched off: make another one the default first.',
  },
  onboarding_state: {
    ru: 'Подключение сейчас на другом шаге. Обновите страницу.',
    kk: 'Қосу қазір басқа қадамда. Бетті жаңартыңыз.',
    en: 'The connection is at another step now. Reload the page.',
  },
  plan_not_purchasable: {
    ru: 'Этот тариф нельзя купить.',
    kk: 'Бұл тарифті сатып алуға болмайды.',
    en: 'This plan cannot be bought.',
  },
  partner_exists: {
    ru: 'Заявка на партнёрство уже подана.',
    kk: 'Серіктестікке өтінім берілген.',
    en: 'A partner application already exists.',
  },
  partner_state: {
    ru: 'Заявка партнёра сейчас в другом статусе. Обновите страницу.',
    kk: 'Серіктес өтінімі қазір басқа күйде. Бетті жаңартыңыз.',
    en: 'The partner application is in another state now. Reload the page.',
  },
  bank_details_required: {
    ru: 'Сначала заполните банковские реквизиты.',
    kk: 'Алдымен банк деректемелерін толтырыңыз.',
    en: 'Fill in the bank details first.',
  },
  messenger_not_linked: {
    ru: 'Привяжите мессенджер в профиле: код подтверждения приходит туда.',
    kk: 'Профильде мессенджерді байланыстырыңыз: растау коды сонда келеді.',
    en: 'Link the messenger in your profile: the confirmation code goes there.',
  },
  withdrawal_in_progress: {
    ru: 'Уже есть незавершённый вывод средств.',
    kk: 'Аяқталмаған қаражат шығару бар.',
    en: 'A withdrawal is already in progress.',
  },
  withdrawal_state: {
    ru: 'Вывод средств сейчас в другом статусе. Обновите страницу.',
    kk: 'Қаражат шығару қазір басқа күйде. Бетті жаңартыңыз.',
    en: 'The withdrawal is in another state now. Reload the page.',
  },
  withdrawal_not_paid: {
    ru: 'Акт есть только у выплаченного вывода.',
    kk: 'Акт тек төленген шығаруда болады.',
    en: 'Only a paid withdrawal has an act.',
  },
  ticket_closed: {
    ru: 'Обращение закрыто. Создайте новое.',
    kk: 'Өтініш жабылған. Жаңасын құрыңыз.',
    en: 'This ticket is closed. Open a new one.',
  },
  provider_outcome_unknown: {
    ru: 'Провайдер не ответил, создан ли платёж. Проверьте список платежей, прежде чем повторять.',
    kk: 'Провайдер төлемнің құрылғанын хабарламады. Қайталамас бұрын төлемдер тізімін тексеріңіз.',
    en: 'The provider did not say whether the payment was created. Check the payments before trying again.',
  },
  provider_device_conflict: {
    ru: 'Устройство уже привязано к другой торговой точке организации.',
    kk: 'Құрылғы ұйымның басқа сауда нүктесіне байланыстырылған.',
    en: 'The device is bound to another trade point of the organization.',
  },
  provider_trade_point_refused: {
    ru: 'Торговая точка сейчас не принимает QR-платежи.',
    kk: 'Сауда нүктесі қазір QR-төлемдерді қабылдамайды.',
    en: 'The trade point does not take QR payments now.',
  },
  provider_refused: {
    ru: 'Провайдер отклонил запрос.',
    kk: 'Провайдер сұрауды қабылдамады.',
    en: 'The provider refused the request.',
  },
  payment_already_paid: { ru: 'Платёж уже оплачен.', kk: 'Төлем төленіп қойған.', en: 'The payment is already paid.' },
  team_limit_reached: {
    ru: 'В команде уже наибольшее число участников.',
    kk: 'Команда мүшелерінің саны шегіне жетті.',
    en: 'The team already has the most members allowed.',
  },
  // 429
  rate_limit_exceeded: {
    ru: 'Слишком много попыток. Подождите минуту и попробуйте снова.',
    kk: 'Әрекет тым көп. Бір минут күтіп, қайталап көріңіз.',
    en: 'Too many attempts. Wait a minute and try again.',
  },
  plan_limit_exceeded: {
    ru: 'Месячный лимит платежей тарифа исчерпан. Перейдите на тариф побольше.',
    kk: 'Тарифтің айлық төлем лимиті таусылды. Үлкенірек тарифке өтіңіз.',
    en: "The plan's monthly payment limit is used up. Move to a larger plan.",
  },
  payment_in_progress: {
    ru: 'Платёж сейчас обрабатывается. Подождите немного.',
    kk: 'Төлем қазір өңделуде. Сәл күтіңіз.',
    en: 'The payment is being processed. Wait a moment.',
  },
  otp_locked: {
    ru: 'Слишком много неверных кодов. Запросите новый код позже.',
    kk: 'Қате кодтар тым көп. Кейінірек жаңа код сұраңыз.',
    en: 'Too many wrong codes. Ask for a new code later.',
  },
  // 5xx
  internal_error: {
    ru: 'Ошибка на сервере. Попробуйте ещё раз; если повторится, напишите в поддержку.',
    kk: 'Сервердегі қате. Қайталап көріңіз; қайталанса, қолдау қызметіне жазыңыз.',
    en: 'A server error. Try again; if it happens again, contact support.',
  },
  logo_upload_disabled: {
    ru: 'Загрузка логотипа на этом сервере выключена: укажите ссылку на логотип.',
    kk: 'Бұл серверде логотип жүктеу өшірулі: логотипке сілтеме көрсетіңіз.',
    en: 'Logo upload is off on this server: give a link to the logo.',
  },
  provider_capability_unavailable: {
    ru: 'Аккаунт провайдера не поддерживает эту операцию.',
    kk: 'Провайдер аккаунты бұл операцияны қолдамайды.',
    en: 'The provider account does not support this operation.',
  },
  provider_error: {
    ru: 'Провайдер ответил ошибкой. Попробуйте позже.',
    kk: 'Провайдер қатемен жауап берді. Кейінірек қайталаңыз.',
    en: 'The provider answered with an error. Try later.',
  },
  session_expired: {
    ru: 'Сессия провайдера истекла: переподключите аккаунт провайдера.',
    kk: 'Провайдер сессиясының мерзімі өтті: провайдер аккаунтын қайта қосыңыз.',
    en: 'The provider session has expired: reconnect the provider account.',
  },
  provider_unreachable: {
    ru: 'Провайдер недоступен с этого сервера. Обратитесь к оператору.',
    kk: 'Провайдер бұл серверден қолжетімсіз. Операторға хабарласыңыз.',
    en: 'The provider cannot be reached from this server. Contact the operator.',
  },
  dashboard_not_built: {
    ru: 'Кабинет на этом сервере не собран.',
    kk: 'Кабинет бұл серверде жиналмаған.',
    en: 'The dashboard is not built on this server.',
  },
  payment_unavailable: {
    ru: 'Приём платежей временно недоступен. Попробуйте позже.',
    kk: 'Төлем қабылдау уақытша қолжетімсіз. Кейінірек қайталаңыз.',
    en: 'Payments are unavailable for now. Try later.',
  },
  qr_creation_failed: {
    ru: 'Не удалось создать QR-код. Попробуйте ещё раз.',
    kk: 'QR-код құру мүмкін болмады. Қайталап көріңіз.',
    en: 'The QR code could not be made. Try again.',
  },
  qr_failed: {
    ru: 'QR-код не получен. Попробуйте ещё раз.',
    kk: 'QR-код алынбады. Қайталап көріңіз.',
    en: 'The QR code did not come. Try again.',
  },
  // decisions 27: cash registers and fiscal receipts.
  fiscal_register_not_found: {
    ru: 'Касса не найдена.',
    kk: 'Касса табылмады.',
    en: 'Cash register not found.',
  },
  receipt_not_found: {
    ru: 'Чек не найден.',
    kk: 'Чек табылмады.',
    en: 'Receipt not found.',
  },
  fiscal_register_exists: {
    ru: 'Эта касса уже подключена.',
    kk: 'Бұл касса қосылып қойған.',
    en: 'This cash register is already set up.',
  },
  fiscal_receipts_pending: {
    ru: 'По кассе ещё отправляются чеки. Удалите её, когда они будут выданы.',
    kk: 'Касса бойынша чектер әлі жіберілуде. Олар берілгенде жойыңыз.',
    en: 'Receipts of this register are still pending. Delete it once they are issued.',
  },
  receipt_not_failed: {
    ru: 'Повторить можно только невыданный чек.',
    kk: 'Тек берілмеген чекті қайталауға болады.',
    en: 'Only a failed receipt can be retried.',
  },
  fiscal_register_busy: {
    ru: 'Касса сейчас отправляет чеки. Попробуйте через минуту.',
    kk: 'Касса қазір чек жіберуде. Бір минуттан кейін қайталаңыз.',
    en: 'The register is sending receipts. Try again in a minute.',
  },
  fiscal_register_refused: {
    ru: 'Сервис кассы отказал: проверьте номер кассы, логин и пароль.',
    kk: 'Касса сервисі бас тартты: касса нөмірін, логин мен құпиясөзді тексеріңіз.',
    en: 'The cash-register service refused: check the register number, login and password.',
  },
  fiscal_service_unavailable: {
    ru: 'Сервис кассы не ответил. Попробуйте позже.',
    kk: 'Касса сервисі жауап бермеді. Кейінірек қайталаңыз.',
    en: 'The cash-register service did not answer. Try later.',
  },
  // The SDK's own (packages/sdk/src/client.ts): no answer at all.
  connection_failed: {
    ru: 'Нет связи с сервером. Проверьте интернет и попробуйте снова.',
    kk: 'Сервермен байланыс жоқ. Интернетті тексеріп, қайталап көріңіз.',
    en: 'No connection to the server. Check the internet and try again.',
  },
  timeout: {
    ru: 'Сервер не ответил вовремя. Попробуйте снова.',
    kk: 'Сервер уақытында жауап бермеді. Қайталап көріңіз.',
    en: 'The server did not answer in time. Try again.',
  },
  unknown: {
    ru: 'Что-то пошло не так. Попробуйте ещё раз.',
    kk: 'Бірдеңе дұрыс болмады. Қайталап көріңіз.',
    en: 'Something went wrong. Try again.',
  },
};

/** The codes of the SDK itself, beside the server's (the test checks both sets). */
export const CLIENT_ERROR_CODES = ['connection_failed', 'timeout', 'unknown'] as const;

export const errorBundle = toBundle('errors', ERROR_WORDS);
Object.assign(errorBundle.ru, {
  'errors.details': 'Подробности для поддержки',
  'errors.invalidField': 'Проверьте поле «{{field}}»: значение не подходит.',
});
Object.assign(errorBundle.kk, {
  'errors.details': 'Қолдау қызметіне арналған мәліметтер',
  'errors.invalidField': '«{{field}}» өрісін тексеріңіз: мәні жарамсыз.',
});
Object.assign(errorBundle.en, {
  'errors.details': 'Details for support',
  'errors.invalidField': 'Check the field “{{field}}”: its value is not accepted.',
});
