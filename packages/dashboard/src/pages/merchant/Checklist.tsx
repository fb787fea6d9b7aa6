// The first steps on the overview (issue 41): start in test mode, then try a test payment, make a link, add
// a webhook and connect the provider. Each step is checked from what the account has (a test payment's
// payment.completed event, a link in either mode, an active webhook, a live provider account), nothing
// stored; a step the user's role may not take is not offered, and the card goes once every step is done.
import { Badge, Button, Card, Group, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import './i18n-guide.ts';
import { api, unwrap } from '../../api/client.ts';
import { useCan, type Permission } from '../../api/me.ts';
import { useMode, type Mode } from '../../mode.tsx';

interface Step {
  id: 'payment' | 'link' | 'webhook' | 'provider';
  action: Permission;
  to: string;
  /** the step is taken with this mode's data: the switch is set before going there */
  mode?: Mode;
}

const STEPS: Step[] = [
  { id: 'payment', action: 'links.write', to: '/links', mode: 'test' },
  { id: 'link', action: 'links.write', to: '/links' },
  { id: 'webhook', action: 'webhooks.write', to: '/webhooks' },
  { id: 'provider', action: 'onboarding.write', to: '/provider', mode: 'live' },
];

/** Whether the account has each step's thing; undefined while its answer is on the way. */
function useProgress(enabled: boolean) {
  const [paid, testLink, liveLink, board] = useQueries({
    queries: [
      {
        enabled,
        queryKey: ['guide', 'test-paid'],
        queryFn: () =>
          unwrap(api.GET('/v2/events', { params: { query: { mode: 'test', type: 'payment.completed', limit: 1 } } })),
      },
      ...(['test', 'live'] as const).map((mode) => ({
        enabled,
        queryKey: ['guide', 'link', mode],
        queryFn: () => unwrap(api.GET('/v2/payment-links', { params: { query: { mode, limit: 1 } } })),
      })),
      { enabled, queryKey: ['guide', 'integrations'], queryFn: () => unwrap(api.GET('/me/integrations')) },
    ],
  }) as [
    { data?: { data: unknown[] } },
    { data?: { data: unknown[] } },
    { data?: { data: unknown[] } },
    { data?: { data: { id: string; status: string; details: Record<string, unknown> }[] } },
  ];
  const item = (id: string) => board.data?.data.find((i) => i.id === id);
  const some = (...lists: ({ data: unknown[] } | undefined)[]) =>
    lists.some((l) => l && l.data.length > 0) || (lists.every(Boolean) ? false : undefined);
  return {
    payment: some(paid.data),
    link: some(testLink.data, liveLink.data),
    webhook: board.data ? Number(item('webhooks')?.details.active ?? 0) > 0 : undefined,
    // A live provider account exists (connected, or needing a reconnect: either way it was connected).
    provider: board.data ? item('provider')?.status !== 'off' : undefined,
  };
}

export function Checklist() {
  const { t } = useTranslation();
  const can = useCan();
  const { mode, setMode } = useMode();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const mine = STEPS.filter((s) => can(s.action));
  // A role that may take none of the steps (an accountant, a viewer) asks for nothing.
  const progress = useProgress(mine.length > 0);
  const steps = mine.map((s) => Object.assign({ done: progress[s.id] }, s));
  // Nothing to offer this role, the answers still coming, or every step done: no card.
  if (steps.length === 0 || steps.some((s) => s.done === undefined) || steps.every((s) => s.done)) return null;
  const switchTo = (m: Mode) => {
    if (m === mode) return;
    setMode(m);
    void queries.invalidateQueries();
  };
  const left = steps.filter((s) => !s.done).length;
  return (
    <Card withBorder data-testid="checklist">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Text fw={700} component="h2" size="lg" m={0}>
            {t('guide.title')}
          </Text>
          <Badge variant="light" color="gray">
            {t('guide.left', { done: steps.length - left, total: steps.length })}
          </Badge>
        </Group>
        <Text size="sm">{t('guide.testStart')}</Text>
        {mode === 'live' && (
          <Button variant="default" w="fit-content" onClick={() => switchTo('test')}>
            {t('guide.toTest')}
          </Button>
        )}
        <List spacing="sm" listStyleType="none" p={0}>
          {steps.map((s) => (
            <List.Item
              key={s.id}
              data-testid={`step-${s.id}`}
              data-done={s.done ? 'yes' : 'no'}
              icon={
                <ThemeIcon color={s.done ? 'teal' : 'gray'} variant={s.done ? 'filled' : 'light'} radius="xl" size="sm">
                  <span aria-hidden="true">{s.done ? '✓' : '·'}</span>
                </ThemeIcon>
              }
            >
              <Group gap="xs" wrap="wrap">
                <Text size="sm" td={s.done ? 'line-through' : undefined}>
                  {t(`guide.${s.id}`)}
                  <Text span size="sm" c="dimmed">
                    {' '}
                    — {s.done ? t('guide.done') : t(`guide.${s.id}Hint`)}
                  </Text>
                </Text>
                {!s.done && (
                  <Button
                    size="compact-sm"
                    variant="default"
                    onClick={() => {
                      if (s.mode) switchTo(s.mode);
                      navigate(s.to);
                    }}
                  >
                    {t(`guide.${s.id}Go`)}
                  </Button>
                )}
              </Group>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Card>
  );
}
