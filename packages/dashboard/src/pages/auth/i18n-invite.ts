// The words of an invitation's registration page (issue 41): the shop and role it gives, or the partner.
import { addBundle } from '../../i18n/index.ts';

addBundle({
  ru: {
    'invite.team': 'Магазин «{{shop}}» приглашает вас в команду. Ваша роль: {{role}}.',
    'invite.partner': '«{{partner}}» приглашает ваш магазин принимать оплату через Tolem.',
    'invite.role.admin': 'администратор',
    'invite.role.accountant': 'бухгалтер',
    'invite.role.support': 'поддержка',
    'invite.role.viewer': 'наблюдатель',
    'invite.role.cashier': 'кассир',
    'errors.invite_invalid': 'Приглашение недействительно: оно использовано, отозвано или истекло. Попросите новое.',
  },
  kk: {
    'invite.team': '«{{shop}}» дүкені сізді командаға шақырады. Сіздің рөліңіз: {{role}}.',
    'invite.partner': '«{{partner}}» дүкеніңізді Tolem арқылы төлем қабылдауға шақырады.',
    'invite.role.admin': 'әкімші',
    'invite.role.accountant': 'бухгалтер',
    'invite.role.support': 'қолдау',
    'invite.role.viewer': 'бақылаушы',
    'invite.role.cashier': 'кассир',
    'errors.invite_invalid': 'Шақыру жарамсыз: ол қолданылған, кері қайтарылған немесе мерзімі өткен. Жаңасын сұраңыз.',
  },
  en: {
    'invite.team': '{{shop}} invites you to its team. Your role: {{role}}.',
    'invite.partner': '{{partner}} invites your shop to take payments with Tolem.',
    'invite.role.admin': 'administrator',
    'invite.role.accountant': 'accountant',
    'invite.role.support': 'support',
    'invite.role.viewer': 'viewer',
    'invite.role.cashier': 'cashier',
    'errors.invite_invalid': 'This invitation is no longer valid: used, revoked or expired. Ask for a new one.',
  },
});
