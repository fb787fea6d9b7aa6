// The cash registers of the mode (decisions 27): each with its status, open shift, receipts waiting, service,
// numbers and fiscal data operator; what the role may do with it: check it with its service now, close its
// shift (the Z-report's totals shown), change its settings, delete it (refused while receipts wait), and
// its shifts. The set-up wizard for the owner and admins.
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { useCan } from '../../api/me.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { notify } from '../../components/notify.ts';
import { Page } from '../../components/Page.tsx';
import { Rows } from '../../components/Rows.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { useWords } from '../../components/words.ts';
import { dateTime } from '../../format.ts';
import { useMode } from '../../mode.tsx';
import { FiscalTabs, registerName, ZTotals, type Register, type Shift } from './fiscal-parts.tsx';
import { RegisterEdit } from './RegisterEdit.tsx';
import { RegisterWizard } from './RegisterWizard.tsx';

type Open = { kind: 'close' | 'edit' | 'delete'; register: Register } | null;

export default function FiscalRegisters() {
  const { t, i18n } = useTranslation();
  const { word } = useWords();
  const { mode } = useMode();
  const can = useCan();
  const queries = useQueryClient();
  const [wizard, { open: openWizard, close: closeWizard }] = useDisclosure();
  const [open, setOpen] = useState<Open>(null);
  // The Z-report of the shift just closed (null: none was open), shown until dismissed.
  const [closed, setClosed] = useState<{ register: Register; shift: Shift | null } | null>(null);
  const list = useInfiniteQuery({
    queryKey: ['fiscal-registers', mode],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/me/fiscal/registers', {
          params: { query: { mode, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['fiscal-registers'] });
  const path = (r: Register) => ({ params: { path: { id: r.id }, query: { mode } } });
  const check = useMutation({
    mutationFn: (r: Register) => unwrap(api.POST('/me/fiscal/registers/{id}/check', path(r))),
    onSuccess: () => {
      notify(t('fiscal.checked'));
      refresh();
    },
  });
  const closeShift = useMutation({
    mutationFn: (r: Register) => unwrap(api.POST('/me/fiscal/registers/{id}/close-shift', path(r))),
    onSuccess: (z, r) => {
      setOpen(null);
      setClosed({ register: r, shift: z.shift });
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (r: Register) => unwrap(api.DELETE('/me/fiscal/registers/{id}', path(r))),
    onSuccess: () => {
      setOpen(null);
      notify(t('fiscal.deleted'));
      refresh();
    },
  });
  const dismiss = () => {
    setOpen(null);
    closeShift.reset();
    remove.reset();
  };
  const rows = list.data?.pages.flatMap((p) => p.data);
  const writer = can('fiscal.registers.write');
  return (
    <Page title={t('fiscal.registers')} actions={writer && <Button onClick={openWizard}>{t('fiscal.setUp')}</Button>}>
      <FiscalTabs />
      <Text size="sm" c="dimmed">
        {t('fiscal.intro')}
      </Text>
      <Dialog opened={wizard} onClose={closeWizard} title={t('fiscal.setUp')} size="lg">
        {wizard && <RegisterWizard onDone={closeWizard} />}
      </Dialog>
      <ErrorAlert error={list.error ?? check.error} />
      <Rows
        testId="registers-table"
        rows={rows}
        rowKey={(r) => r.id}
        minWidth={900}
        columns={[
          {
            label: t('fiscal.name'),
            cell: (r) => (
              <Stack gap={0}>
                <Text fw={600} size="sm">
                  {registerName(r)}
                </Text>
                <Text size="xs" c="dimmed">
                  {word('fiscal_driver', r.driver)}
                </Text>
              </Stack>
            ),
          },
          {
            label: t('common.status'),
            cell: (r) => <StatusBadge status={r.status} kind="fiscal_register_status" />,
          },
          {
            label: t('fiscal.shift'),
            cell: (r) =>
              r.shift
                ? t('fiscal.shiftOpen', { number: r.shift.number, at: dateTime(r.shift.opened_at, i18n.language) })
                : t('fiscal.noShift'),
          },
          { label: t('fiscal.pending'), cell: (r) => r.pending_receipts ?? 0, align: 'right' },
          { label: t('fiscal.registerNumber'), cell: (r) => <Text ff="monospace">{r.register_number}</Text> },
          { label: t('fiscal.rnm'), cell: (r) => r.register.registration_number ?? '—' },
          { label: t('fiscal.ofd'), cell: (r) => r.register.ofd?.name ?? '—' },
          {
            label: t('common.actions'),
            card: 'actions',
            cell: (r) => (
              <Group gap="xs" wrap="wrap">
                <Anchor component={Link} to={`/fiscal/registers/${r.id}/shifts`} size="sm">
                  {t('fiscal.shifts')}
                </Anchor>
                {writer && (
                  <Button
                    size="xs"
                    variant="default"
                    loading={check.isPending && check.variables?.id === r.id}
                    onClick={() => check.mutate(r)}
                  >
                    {t('fiscal.check')}
                  </Button>
                )}
                {can('fiscal.operate') && (
                  <Button size="xs" variant="default" onClick={() => setOpen({ kind: 'close', register: r })}>
                    {t('fiscal.closeShift')}
                  </Button>
                )}
                {writer && (
                  <Button size="xs" variant="default" onClick={() => setOpen({ kind: 'edit', register: r })}>
                    {t('fiscal.edit')}
                  </Button>
                )}
                {writer && (
                  <Button
                    size="xs"
                    color="red.9"
                    variant="light"
                    onClick={() => setOpen({ kind: 'delete', register: r })}
                  >
                    {t('fiscal.delete')}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
      {list.hasNextPage && (
        <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          {t('common.more')}
        </Button>
      )}
      <Dialog opened={open?.kind === 'close'} onClose={dismiss} title={t('fiscal.closeShiftTitle')}>
        {open?.kind === 'close' && (
          <Stack>
            <Text>{t('fiscal.closeShiftText')}</Text>
            <ErrorAlert error={closeShift.error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={dismiss}>
                {t('common.cancel')}
              </Button>
              <Button loading={closeShift.isPending} onClick={() => closeShift.mutate(open.register)}>
                {t('fiscal.closeShift')}
              </Button>
            </Group>
          </Stack>
        )}
      </Dialog>
      <Dialog
        opened={closed !== null}
        onClose={() => setClosed(null)}
        title={closed?.shift ? t('fiscal.shiftClosed', { number: closed.shift.number }) : t('fiscal.noShiftOpen')}
      >
        {closed && (
          <Stack>
            <Text size="sm">{registerName(closed.register)}</Text>
            {closed.shift?.z_report && (
              <>
                <Text fw={600} size="sm">
                  {t('fiscal.zTotals')}
                </Text>
                <ZTotals z={closed.shift.z_report} />
              </>
            )}
            <Group justify="flex-end">
              <Button onClick={() => setClosed(null)}>{t('common.close')}</Button>
            </Group>
          </Stack>
        )}
      </Dialog>
      <Dialog opened={open?.kind === 'edit'} onClose={dismiss} title={t('fiscal.editTitle')} size="lg">
        {open?.kind === 'edit' && <RegisterEdit register={open.register} onDone={dismiss} />}
      </Dialog>
      <Dialog opened={open?.kind === 'delete'} onClose={dismiss} title={t('fiscal.deleteTitle')}>
        {open?.kind === 'delete' && (
          <Stack>
            <Text>{t('fiscal.deleteText', { name: registerName(open.register) })}</Text>
            <ErrorAlert error={remove.error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={dismiss}>
                {t('common.cancel')}
              </Button>
              <Button color="red.9" loading={remove.isPending} onClick={() => remove.mutate(open.register)}>
                {t('fiscal.delete')}
              </Button>
            </Group>
          </Stack>
        )}
      </Dialog>
    </Page>
  );
}
