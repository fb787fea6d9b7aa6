// A short notice in the corner, its close button named in the user's language.
import { notifications } from '@mantine/notifications';
import i18n from '../i18n/index.ts';

export function notify(message: string, color: 'teal' | 'red' = 'teal'): void {
  notifications.show({ message, color, closeButtonProps: { 'aria-label': i18n.t('common.close') } });
}
