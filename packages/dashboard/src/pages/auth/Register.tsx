// Registration: a new shop (its API keys are shown once, here), a team invitation (?invite_token=inv_…),
// a partner's invitation (pinv_…) or referral link (?referral_code=). An invitation names what it is for
// (InviteDetails) and fills in the invited address.
import { Button, PasswordInput, TextInput, Text, Anchor, Stack, Alert } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { storePair } from '../../api/session.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { AuthFrame } from './AuthFrame.tsx';
import { InviteDetails } from './InviteDetails.tsx';

export default function Register() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const invite = params.get('invite_token') ?? undefined;
  const referral = params.get('referral_code') ?? undefined;
  const [name, setName] = useState('');
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const navigate = useNavigate();
  // The invited address, unless the user has typed one already.
  const invitedEmail = useCallback((e: string) => setEmail((typed) => typed || e), []);
  const register = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/auth/register', {
          body: {
            name,
            email,
            password,
            ...(invite ? { invite_token: invite } : {}),
            ...(referral ? { referral_code: referral } : {}),
          },
        }),
      ),
    onSuccess: (r) => {
      storePair(r);
      if (!r.api_keys) navigate('/', { replace: true });
    },
  });
  const keys = register.data?.api_keys;
  if (keys) {
    return (
      <AuthFrame title={t('auth.keysTitle')}>
        <Stack>
          <ShownOnce label={t('apiKeys.test')} value={keys.test} />
          <ShownOnce label={t('apiKeys.live')} value={keys.live} />
          <Button onClick={() => navigate('/', { replace: true })}>{t('auth.continue')}</Button>
        </Stack>
      </AuthFrame>
    );
  }
  const teamInvite = invite?.startsWith('inv_');
  return (
    <AuthFrame title={t('auth.register')}>
      {invite ? (
        <InviteDetails token={invite} onEmail={invitedEmail} />
      ) : (
        referral && <Alert>{t('auth.referral')}</Alert>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          register.mutate();
        }}
      >
        <TextInput
          label={teamInvite ? t('auth.yourName') : t('auth.name')}
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          mb="sm"
        />
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
          autoComplete="new-password"
          required
          minLength={8}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          mb="md"
        />
        <ErrorAlert error={register.error} />
        <Button type="submit" fullWidth mt="md" loading={register.isPending}>
          {t('auth.submitRegister')}
        </Button>
      </form>
      <Text size="sm">
        {t('auth.haveAccount')}{' '}
        <Anchor component={Link} to="/login">
          {t('auth.signIn')}
        </Anchor>
      </Text>
    </AuthFrame>
  );
}
