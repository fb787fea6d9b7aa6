// A one-time login link (a partner's, for a merchant it manages): ?token=mt_… traded for a session once.
import { Loader, Center, Alert, Anchor } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { storePair } from '../../api/session.ts';
import { AuthFrame } from './AuthFrame.tsx';

export default function Magic() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const started = useRef(false);
  useEffect(() => {
    // Once only: the token is single use (StrictMode runs effects twice in development).
    if (started.current) return;
    started.current = true;
    const token = params.get('token') ?? '';
    unwrap(api.POST('/auth/magic-exchange', { body: { token } }))
      .then((pair) => {
        storePair(pair);
        navigate('/', { replace: true });
      })
      .catch(() => setFailed(true));
  }, [params, navigate]);
  return (
    <AuthFrame title={t('auth.signIn')}>
      {failed ? (
        <Alert color="red" role="alert">
          {t('auth.magicFailed')}{' '}
          <Anchor component={Link} to="/login">
            {t('auth.signIn')}
          </Anchor>
        </Alert>
      ) : (
        <Center>
          {t('auth.magic')} <Loader size="sm" ml="sm" />
        </Center>
      )}
    </AuthFrame>
  );
}
