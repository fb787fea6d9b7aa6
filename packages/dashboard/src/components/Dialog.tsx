// Mantine's Modal with a named close button (a screen reader says "Close", not "button").
import { Modal, type ModalProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function Dialog(props: ModalProps) {
  const { t } = useTranslation();
  return <Modal {...props} closeButtonProps={{ 'aria-label': t('common.close') }} />;
}
