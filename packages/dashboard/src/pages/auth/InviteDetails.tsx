// What an invitation is for, above the registration form (issue 41): the shop and the role a team
// invitation gives, or the partner that invites a shop (POST /auth/invite-details). The invited address
// fills the e-mail field; a spent or expired invitation says so before the form is filled in vain.
import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n-invite.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { useWords } from '../../components/words.ts';

// The role as it reads inside the invite's sentence (lower case), one key per role the API may name.
const ROLE_IN_A_SENTENCE: Record<string, string> = {
  admin: 'invite.role.admin',
  accountant: 'invite.role.accountant',
  support: 'invite.role.support',
  viewer: 'invite.role.viewer',
  cashier: 'invite.role.cashier',
};

export function InviteDetails({ token, onEmail }: { token: string; onEmail: (email: string) => void }) {
  const { t } = useTranslation();
  const { word } = useWords();
  const role = (r: string) => (ROLE_IN_A_SENTENCE[r] ? t(ROLE_IN_A_SENTENCE[r]) : word('member_role', r));
  const details = useQuery({
    queryKey: ['invite', token],
    queryFn: () => unwrap(api.POST('/auth/invite-details', { body: { invite_token: token } })),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const d = details.data;
  useEffect(() => {
    if (d) onEmail(d.email);
  }, [d, onEmail]);
  if (details.error) return <ErrorAlert error={details.error} />;
  const team = token.startsWith('inv_');
  // No title: an alert is named by its title, and "…your name and password" would name it like the field.
  return (
    <Alert>
      <Text size="sm" fw={600}>
        {team ? t('auth.invited') : t('auth.referral')}
      </Text>
      {d && (
        <Text size="sm" data-testid="invite-details">
          {d.kind === 'team'
            ? t('invite.team', {
                shop: d.shop_name,
                role: role(d.role ?? ''),
              })
            : t('invite.partner', { partner: d.partner_name })}
        </Text>
      )}
    </Alert>
  );
}
