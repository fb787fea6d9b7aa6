import { Button, PasswordInput, TextInput, Text, Anchor } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { storePair } from '../../api/session.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { AuthFrame } from './AuthFrame.tsx';

/** Where to go after signing in: a path of the dashboard only (never another site). */
export const safeNext = (next: string | null) => (next && next.startsWith('/') && !next.startsWith('//') ? next : '/');

export function SignIn() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const login = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/login', { body: { email, password } })),
    onSuccess: (pair) => {
      storePair(pair);
      navigate(safeNext(params.get('next')), { replace: true });
    },
  });
  return (
    <AuthFrame title={t('auth.signIn')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          login.mutate();
        }}
      >
        <TextInput
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          mb="sm"
        />
        <PasswordInput
          label={t('auth.password')}
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          mb="xs"
        />
        <Text size="sm" ta="right" mb="md">
          <Anchor component={Link} to="/forgot-password" data-testid="forgot-password">
            {t('auth.forgotLink')}
          </Anchor>
        </Text>
        <ErrorAlert error={login.error} />
        <Button type="submit" fullWidth mt="md" loading={login.isPending}>
          {t('auth.submitSignIn')}
        </Button>
      </form>
      <Text size="sm">
        {t('auth.noAccount')}{' '}
        <Anchor component={Link} to="/register">
          {t('auth.register')}
        </Anchor>
      </Text>
    </AuthFrame>
  );
}
