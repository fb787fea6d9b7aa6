// The page of the e-mailed reset link (/reset-password?token=...): the new password twice, then back to
// sign-in (every session of the user ended with the reset, this browser's too).
import { Alert, Anchor, Button, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { signOut } from '../../api/session.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { AuthFrame } from './AuthFrame.tsx';
import { NewPasswordInputs, newPasswordProblem } from './NewPassword.tsx';
import './i18n-password.ts';

export default function ResetPassword() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [tried, setTried] = useState(false);
  const reset = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/password/reset', { body: { token, password } })),
    // The session this browser may hold was revoked with the others: forget it.
    onSuccess: () => signOut(),
  });
  const requestNew = (
    <Text size="sm">
      <Anchor component={Link} to="/forgot-password">
        {t('password.requestNew')}
      </Anchor>
    </Text>
  );
  if (!token)
    return (
      <AuthFrame title={t('password.resetTitle')}>
        <Alert color="red" role="alert">
          {t('password.noToken')}
        </Alert>
        {requestNew}
      </AuthFrame>
    );
  if (reset.isSuccess)
    return (
      <AuthFrame title={t('password.resetTitle')}>
        <Alert color="teal" role="status" data-testid="reset-done">
          {t('password.resetDone')}
        </Alert>
        <Button component={Link} to="/login">
          {t('auth.submitSignIn')}
        </Button>
      </AuthFrame>
    );
  return (
    <AuthFrame title={t('password.resetTitle')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (!newPasswordProblem(password, repeat)) reset.mutate();
        }}
      >
        <NewPasswordInputs
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
          showErrors={tried}
        />
        <ErrorAlert error={reset.error} />
        <Button type="submit" fullWidth mt="md" loading={reset.isPending}>
          {t('password.save')}
        </Button>
      </form>
      {requestNew}
    </AuthFrame>
  );
}
