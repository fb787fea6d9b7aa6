// Asking for a password-reset link: the e-mail, then the same confirmation whether it has an account or
// not (the API answers 202 alike, decisions 30).
import { Anchor, Button, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { AuthFrame } from './AuthFrame.tsx';
import './i18n-password.ts';

export default function ForgotPassword() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const send = useMutation({
    mutationFn: (address: string) => unwrap(api.POST('/auth/password/forgot', { body: { email: address } })),
  });
  const back = (
    <Text size="sm">
      <Anchor component={Link} to="/login">
        {t('password.backToSignIn')}
      </Anchor>
    </Text>
  );
  if (send.isSuccess)
    return (
      <AuthFrame title={t('password.sentTitle')}>
        <Text role="status" data-testid="reset-sent">
          {t('password.sent', { email: send.variables })}
        </Text>
        <Button variant="default" onClick={() => send.reset()}>
          {t('password.requestNew')}
        </Button>
        {back}
      </AuthFrame>
    );
  return (
    <AuthFrame title={t('password.forgotTitle')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send.mutate(email.trim());
        }}
      >
        <Text size="sm" mb="sm">
          {t('password.forgotIntro')}
        </Text>
        <TextInput
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          mb="md"
        />
        <ErrorAlert error={send.error} />
        <Button type="submit" fullWidth mt="md" loading={send.isPending}>
          {t('password.sendLink')}
        </Button>
      </form>
      {back}
    </AuthFrame>
  );
}
