// The words of a page that failed to load or to draw, of the skip link and of scrolled rows of choices. In
// the first chunk with the shell's words: they must be there when a page's own chunk is not.
import { addBundle } from '../i18n/index.ts';

addBundle({
  ru: {
    'load.failedTitle': 'Не удалось загрузить страницу',
    'load.failedText': 'Нет связи с сервером, или он перезапускается. Проверьте подключение и попробуйте снова.',
    'load.errorTitle': 'На этой странице произошла ошибка',
    'load.errorText': 'Попробуйте ещё раз. Если ошибка повторится, обновите страницу или напишите в поддержку.',
    'load.retry': 'Попробовать снова',
    'load.reload': 'Обновить страницу',
    'load.updating': 'Вышла новая версия: обновляем страницу…',
    'skip.toContent': 'Перейти к содержимому',
    'scroll.back': 'Прокрутить назад',
    'scroll.forward': 'Прокрутить вперёд',
  },
  kk: {
    'load.failedTitle': 'Бетті жүктеу мүмкін болмады',
    'load.failedText':
      'Сервермен байланыс жоқ немесе ол қайта іске қосылып жатыр. Қосылымды тексеріп, қайталап көріңіз.',
    'load.errorTitle': 'Бұл бетте қате орын алды',
    'load.errorText': 'Қайталап көріңіз. Қате қайталанса, бетті жаңартыңыз немесе қолдау қызметіне жазыңыз.',
    'load.retry': 'Қайталап көру',
    'load.reload': 'Бетті жаңарту',
    'load.updating': 'Жаңа нұсқа шықты: бетті жаңартып жатырмыз…',
    'skip.toContent': 'Мазмұнға өту',
    'scroll.back': 'Артқа айналдыру',
    'scroll.forward': 'Алға айналдыру',
  },
  en: {
    'load.failedTitle': 'The page could not be loaded',
    'load.failedText': 'The server cannot be reached, or it is restarting. Check your connection and try again.',
    'load.errorTitle': 'Something went wrong on this page',
    'load.errorText': 'Try again. If it happens again, reload the page or write to support.',
    'load.retry': 'Try again',
    'load.reload': 'Reload the page',
    'load.updating': 'A new version is out: reloading the page…',
    'skip.toContent': 'Skip to content',
    'scroll.back': 'Scroll back',
    'scroll.forward': 'Scroll forward',
  },
});
