// What the user sees instead of React Router's blank "Unexpected Application Error!" when a page cannot be
// drawn. Each page sits in one of these inside the shell, so the menu stays. A chunk that failed to load
// (after lazyPage's retries) reloads the page once if a new build replaced it (new-build.ts); otherwise, or
// for any other error, the page's place says so in the user's language, with "try again" (the page is
// drawn anew: a failed chunk is asked for again) and "reload the page". Going to another page clears it.
import { Alert, Button, Center, Group, Loader, Text } from '@mantine/core';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import './i18n.ts';
import { ChunkLoadError, renewFailedPages } from './lazy-page.ts';
import { reloadForNewBuild } from './new-build.ts';

type Shown = 'checking' | 'reloading' | 'load' | 'error';

/** A page on its way: a spinner that says so to a screen reader (a status, named in the user's language). */
export function Pending({ label = 'common.loading' }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center p="xl">
      <Loader role="status" aria-label={t(label)} />
    </Center>
  );
}

function Failure({ shown, onRetry }: { shown: Shown; onRetry?: () => void }) {
  const { t } = useTranslation();
  if (shown === 'checking' || shown === 'reloading')
    return <Pending label={shown === 'reloading' ? 'load.updating' : 'common.loading'} />;
  const load = shown === 'load';
  return (
    <Alert color="red" title={t(load ? 'load.failedTitle' : 'load.errorTitle')} role="alert" data-testid="page-failed">
      <Text size="sm" mb="sm">
        {t(load ? 'load.failedText' : 'load.errorText')}
      </Text>
      <Group gap="sm">
        {onRetry && (
          <Button size="sm" onClick={onRetry}>
            {t('load.retry')}
          </Button>
        )}
        <Button size="sm" variant={onRetry ? 'default' : 'filled'} onClick={() => location.reload()}>
          {t('load.reload')}
        </Button>
      </Group>
    </Alert>
  );
}

function shownFor(error: unknown): Shown {
  return error instanceof ChunkLoadError ? 'load' : 'error';
}

interface Props {
  children: ReactNode;
  /** the page's address: going to another page puts the failed one away (the boundary stays in place) */
  resetKey: string;
}

export class PageBoundary extends Component<Props, { shown: Shown | null; key: string }> {
  state = { shown: null as Shown | null, key: this.props.resetKey };

  static getDerivedStateFromProps(props: Props, state: { key: string }) {
    return props.resetKey === state.key ? null : { shown: null, key: props.resetKey };
  }

  static getDerivedStateFromError(error: unknown): { shown: Shown } {
    return { shown: error instanceof ChunkLoadError ? 'checking' : 'error' };
  }

  // React itself logs the error to the console.
  componentDidCatch(error: unknown): void {
    if (!(error instanceof ChunkLoadError)) return;
    const key = this.state.key;
    // Unless the user went to another page meanwhile.
    void reloadForNewBuild(error.url).then((reloading) =>
      this.setState((s) =>
        s.key === key && s.shown === 'checking' ? { shown: reloading ? 'reloading' : 'load' } : null,
      ),
    );
  }

  // Another page now: a failed one is asked for again when the user comes back to it.
  componentDidUpdate(before: Props): void {
    if (before.resetKey !== this.props.resetKey) renewFailedPages();
  }

  retry = () => {
    renewFailedPages();
    this.setState({ shown: null });
  };

  render() {
    return this.state.shown ? <Failure shown={this.state.shown} onRetry={this.retry} /> : this.props.children;
  }
}

/** The router's error element: an error no PageBoundary caught. Nothing to draw again: a reload. */
export function RouteError() {
  const error = useRouteError();
  return (
    <Center mih="50vh" p="md">
      <Failure shown={shownFor(error)} />
    </Center>
  );
}
