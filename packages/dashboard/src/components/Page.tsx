// A page's frame: its title (the document's too), optional actions on the right, and its body.
import { Group, Stack, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Tolem`;
  }, [title]);
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        {/* A payment id in the title is one long word: it breaks rather than widen a 390 px page. */}
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Stack>
  );
}
