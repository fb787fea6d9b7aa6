// The team: its members and invitations; the owner invites by e-mail (the link is shown once) and changes
// roles or removes members (the API answers others not_owner, shown as it says); and the partner's access
// to the account (PartnerAccess), the other way into it.
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './i18n-more.ts';
import { api, unwrap } from '../../api/client.ts';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { ShownOnce } from '../../components/ShownOnce.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { PartnerAccess } from './PartnerAccess.tsx';
import { useWords } from '../../components/words.ts';

const ROLES = ['admin', 'accountant', 'support', 'viewer', 'cashier'] as const;
type Role = (typeof ROLES)[number];

export default function Team() {
  const { t } = useTranslation();
  const { word } = useWords();
  const queries = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const team = useQuery({ queryKey: ['team'], queryFn: () => unwrap(api.GET('/me/team')) });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['team'] });
  const invite = useMutation({
    mutationFn: () => unwrap(api.POST('/me/team/invite', { body: { email, role } })),
    onSuccess: refresh,
  });
  const change = useMutation({
    mutationFn: (v: { id: number; role: Role }) =>
      unwrap(
        api.PATCH('/me/team/{member_id}', { params: { path: { member_id: String(v.id) } }, body: { role: v.role } }),
      ),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/me/team/{member_id}', { params: { path: { member_id: String(id) } } })),
    onSuccess: refresh,
  });
  const roleData = ROLES.map((r) => ({ value: r, label: word('member_role', r) }));
  return (
    <Page title={t('team.title')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate();
        }}
      >
        <Group align="end" wrap="wrap">
          <TextInput
            label={t('team.email')}
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <Select
            label={t('team.role')}
            data={roleData}
            value={role}
            onChange={(v) => v && setRole(v as Role)}
            allowDeselect={false}
          />
          <Button type="submit" loading={invite.isPending}>
            {t('team.invite')}
          </Button>
        </Group>
      </form>
      <ErrorAlert error={invite.error ?? change.error ?? remove.error ?? team.error} />
      {invite.data && <ShownOnce label={t('team.inviteLink')} value={invite.data.invite_url} />}
      <Rows
        testId="team-table"
        rows={team.data?.data}
        rowKey={(m) => m.id}
        columns={[
          { label: t('team.email'), cell: (m) => m.email },
          { label: t('team.name'), cell: (m) => m.name },
          {
            label: t('team.role'),
            cell: (m) =>
              m.role === 'owner' ? (
                word('member_role', 'owner')
              ) : (
                <Select
                  aria-label={`${t('team.role')} ${m.email}`}
                  size="xs"
                  data={roleData}
                  value={m.role}
                  allowDeselect={false}
                  onChange={(v) => v && change.mutate({ id: m.id, role: v as Role })}
                />
              ),
          },
          { label: t('team.status'), cell: (m) => <StatusBadge status={m.status} kind="member_status" /> },
          {
            label: t('common.actions'),
            cell: (m) =>
              m.role !== 'owner' && (
                <Button size="xs" variant="default" onClick={() => remove.mutate(m.id)}>
                  {t('team.remove')}
                </Button>
              ),
          },
        ]}
      />
      <PartnerAccess />
    </Page>
  );
}
