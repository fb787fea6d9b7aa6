// Who paid, on a payment's page: the payer's name and phone as the API gives them (the phone is the invoice's;
// the provider does not tell a QR payer's phone).
import { Card, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import './i18n-search.ts';

export function PaymentBuyer({ name, phone }: { name: string | null; phone: string | null }) {
  const { t } = useTranslation();
  return (
    <Card withBorder data-testid="payment-buyer">
      <Text fw={600} mb="xs" component="h2">
        {t('buyer.title')}
      </Text>
      {name || phone ? (
        <Stack gap={2}>
          {name && (
            <Text size="sm">
              {t('buyer.name')}: {name}
            </Text>
          )}
          {phone && (
            <Text size="sm">
              {t('buyer.phone')}: <span dir="ltr">{phone}</span>
            </Text>
          )}
        </Stack>
      ) : (
        <Text c="dimmed" size="sm">
          {t('buyer.unknown')}
        </Text>
      )}
    </Card>
  );
}
