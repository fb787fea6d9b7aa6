// The signed-in frame: a link to skip to the page (the first thing Tab reaches), a header (menu button on
// phones, the test-data switch, language, sign out), the navigation by section (the shop; partners;
// administration for admins, with what waits on each page), each page listed only for the roles that may
// use it, a banner while test data is shown, and the page. A chunk of its own, with the notices and the
// styles of every component (the sign-in form's first load carries only its own).
import '../styles/full.ts';
import {
  AppShell,
  Burger,
  Group,
  NavLink,
  ScrollArea,
  Select,
  Switch,
  Text,
  Button,
  Alert,
  Badge,
  Divider,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { acting, signOut, stopActing } from '../api/session.ts';
import { useCan, useMe } from '../api/me.ts';
import { useMode } from '../mode.tsx';
import { LANGUAGES, setLanguage, type Language } from '../i18n/index.ts';

import { merchantRoutes } from '../pages/merchant/routes.ts';
import { partnerRoutes } from '../pages/partner/routes.ts';
import { adminRoutes } from '../pages/admin/routes.ts';
import { countLabel, navOf, useAdminCounts, type NavItem } from './nav.ts';
import './i18n-nav.ts';
import '../pages/partner/i18n.ts';
import { SkipLink, MAIN_ID } from './SkipLink.tsx';

const LANG_NAMES: Record<Language, string> = { ru: 'Русский', kk: 'Қазақша', en: 'English' };

export default function Shell() {
  const { t, i18n } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();
  const { mode, setMode } = useMode();
  const me = useMe();
  const can = useCan();
  const counts = useAdminCounts(me.data?.is_admin === true);
  const partnerNav = navOf('partner', partnerRoutes, can);
  const navigate = useNavigate();
  const queries = useQueryClient();
  const { pathname } = useLocation();

  const link = ({ to, label, exact, count }: NavItem) => {
    const waiting = count ? countLabel(counts.data?.[count]) : null;
    return (
      <NavLink
        key={to}
        component={RouterLink}
        to={`/${to}`}
        end={exact}
        label={t(label)}
        active={exact ? pathname === `/${to}` : pathname === `/${to}` || pathname.startsWith(`/${to}/`)}
        variant="filled"
        onClick={close}
        rightSection={
          waiting && (
            <Badge size="sm" color="red" data-testid={`count-${count}`}>
              {waiting}
              <VisuallyHidden> {t('nav.waiting')}</VisuallyHidden>
            </Badge>
          )
        }
      />
    );
  };

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <SkipLink />
      <Notifications position="top-right" />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.menu')} />
            <Text fw={700} size="lg">
              Tolem
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Switch
              checked={mode === 'test'}
              onChange={(e) => {
                setMode(e.currentTarget.checked ? 'test' : 'live');
                void queries.invalidateQueries();
              }}
              label={t('mode.test')}
              color="orange"
              data-testid="mode-switch"
            />
            <Select
              aria-label={t('lang.label')}
              data={LANGUAGES.map((l) => ({ value: l, label: LANG_NAMES[l] }))}
              value={i18n.language}
              onChange={(v) => v && setLanguage(v as Language)}
              w={120}
              size="xs"
              allowDeselect={false}
              visibleFrom="xs"
            />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('nav.menu')}>
        <ScrollArea>
          <Text size="xs" c="dimmed" px="sm" pt="xs">
            {me.data?.name ?? t('nav.merchant')}
          </Text>
          {navOf('', merchantRoutes, can).map(link)}
          {partnerNav.length > 0 && (
            <>
              <Divider my="xs" label={t('nav.partner')} labelPosition="left" />
              {partnerNav.map(link)}
            </>
          )}
          {me.data?.is_admin && adminRoutes.length > 0 && (
            <>
              <Divider my="xs" label={t('nav.admin')} labelPosition="left" />
              {navOf('admin', adminRoutes, () => true).map(link)}
            </>
          )}
          <Divider my="xs" />
          <Select
            aria-label={t('lang.label')}
            data={LANGUAGES.map((l) => ({ value: l, label: LANG_NAMES[l] }))}
            value={i18n.language}
            onChange={(v) => v && setLanguage(v as Language)}
            size="xs"
            px="sm"
            allowDeselect={false}
            hiddenFrom="xs"
          />
          <Button
            variant="subtle"
            color="dark"
            fullWidth
            justify="flex-start"
            onClick={() => {
              signOut();
              queries.clear();
              navigate('/login');
            }}
          >
            {t('nav.signOut')}
          </Button>
        </ScrollArea>
      </AppShell.Navbar>
      {/* The skip link's target: focusable by script only (tabIndex -1), so Tab does not stop on it. */}
      <AppShell.Main id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
        {acting() && (
          <Alert color="grape" mb="md" data-testid="acting-banner">
            {t('mode.acting')}{' '}
            <Button
              size="xs"
              variant="default"
              ml="sm"
              onClick={() => {
                stopActing();
                queries.clear();
                navigate('/partner');
              }}
            >
              {t('mode.stopActing')}
            </Button>
          </Alert>
        )}
        {mode === 'test' && (
          <Alert color="orange" mb="md" data-testid="test-banner">
            {t('mode.testBanner')}
          </Alert>
        )}
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
