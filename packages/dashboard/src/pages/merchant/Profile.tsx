// The signed-in user's profile: its shop and role, its messenger chat (MessengerLink), its staff alerts
// (StaffAlerts, decisions 28), and its password (decisions 30). The password change answers a new token
// pair: this session goes on with it, the user's other sessions end.
import { Button, Card, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n-more.ts';
import '../auth/i18n-password.ts';
import { api, unwrap } from '../../api/client.ts';
import { useCan, useMe } from '../../api/me.ts';
import { storePair } from '../../api/session.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { notify } from '../../components/notify.ts';
import { Page } from '../../components/Page.tsx';
import { useWords } from '../../components/words.ts';
import { NewPasswordInputs, newPasswordProblem } from '../auth/NewPassword.tsx';
import { MessengerLink } from './MessengerLink.tsx';
import { StaffAlerts } from './StaffAlerts.tsx';

function ChangePassword() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [tried, setTried] = useState(false);
  const change = useMutation({
    mutationFn: () => unwrap(api.POST('/me/password', { body: { current_password: current, new_password: password } })),
    onSuccess: (pair) => {
      storePair(pair);
      setCurrent('');
      setPassword('');
      setRepeat('');
      setTried(false);
      notify(t('password.changed'));
    },
  });
  return (
    <Card withBorder maw={480}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (!newPasswordProblem(password, repeat)) change.mutate();
        }}
      >
        <Stack gap={0}>
          <Title order={2} size="h4" mb="xs">
            {t('password.changeTitle')}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t('password.changeHint')}
          </Text>
          <PasswordInput
            label={t('password.current')}
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            mb="sm"
          />
          <NewPasswordInputs
            password={password}
            repeat={repeat}
            onPassword={setPassword}
            onRepeat={setRepeat}
            showErrors={tried}
          />
          <ErrorAlert error={change.error} />
          <Button type="submit" mt="md" loading={change.isPending} data-testid="change-password">
            {t('password.save')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

export default function Profile() {
  const { t } = useTranslation();
  const { word } = useWords();
  const me = useMe();
  const can = useCan();
  return (
    <Page title={t('profile.title')}>
      <ErrorAlert error={me.error} />
      {me.data && (
        <Stack gap={4}>
          <Text size="sm">
            {t('nav.merchant')}: {me.data.name}
          </Text>
          <Text size="sm">
            {t('profile.role')}: {word('member_role', me.data.role)}
          </Text>
        </Stack>
      )}
      {/* Both are blocked while a partner acts in the account: the permissions say so (the API refuses too). */}
      {can('messenger.link') && <MessengerLink />}
      {/* Read by every member; the switches are locked for a partner acting in the account. */}
      <StaffAlerts />
      {can('account.password') && <ChangePassword />}
    </Page>
  );
}
