// A list of records: a table on a wide screen (in a horizontal scroll when its columns need more room), a
// card per record on a narrow one, where a table would hide its right-hand columns (a payment's amount)
// behind a sideways scroll. The card: the title column (the first unless one says `card: 'title'`) on
// top, then each other column's label and value, long ones (`card: 'wide'`) under their label, and the
// actions (`card: 'actions'`, or a column labelled "Actions" or nothing) at the bottom. Each record, row or
// card, is data-testid="row". Empty: the empty state.
import { Box, Card, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface Column<T> {
  label: string;
  cell: (row: T) => ReactNode;
  align?: 'right';
  /** its place on a card: the heading, a long value under its label, or with the actions at the bottom */
  card?: 'title' | 'wide' | 'actions';
}

/**
 * Cards below Mantine's `md` (62em): the menu shows from `sm` (48em) on and takes 240 px, which leaves a
 * table less than its usual 640 px until `md`.
 */
const NARROW = '(max-width: 61.99em)';

export function Rows<T>({
  rows,
  columns,
  rowKey,
  testId,
  minWidth = 640,
  empty,
}: {
  rows: T[] | undefined;
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  testId?: string;
  minWidth?: number;
  /** what an empty list says; default: the common "nothing yet" */
  empty?: string;
}) {
  const { t } = useTranslation();
  const narrow = useMediaQuery(NARROW, false, { getInitialValueInEffect: false });
  return (
    <>
      {narrow ? (
        <Cards rows={rows} columns={columns} rowKey={rowKey} testId={testId} actionsLabel={t('common.actions')} />
      ) : (
        <ScrollArea viewportProps={{ tabIndex: 0 }}>
          <Table striped miw={minWidth} data-testid={testId}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c, i) => (
                  <Table.Th key={i} ta={c.align}>
                    {c.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows?.map((r) => (
                <Table.Tr key={rowKey(r)} data-testid="row">
                  {columns.map((c, i) => (
                    <Table.Td key={i} ta={c.align} style={c.align ? { whiteSpace: 'nowrap' } : undefined}>
                      {c.cell(r)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {rows?.length === 0 && <Text c="dimmed">{empty ?? t('common.empty')}</Text>}
    </>
  );
}

/** Long words (ids, addresses) break anywhere rather than widen the card. */
const breakable = { overflowWrap: 'anywhere', minWidth: 0 } as const;

function Cards<T>({
  rows,
  columns,
  rowKey,
  testId,
  actionsLabel,
}: {
  rows: T[] | undefined;
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  testId?: string;
  actionsLabel: string;
}) {
  const isActions = (c: Column<T>) => c.card === 'actions' || (!c.card && (!c.label || c.label === actionsLabel));
  const title = columns.find((c) => c.card === 'title') ?? columns.find((c) => !isActions(c));
  const fields = columns.filter((c) => c !== title && !isActions(c));
  const actions = columns.filter(isActions);
  return (
    <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} data-testid={testId}>
      {rows?.map((r) => {
        // A record with nothing to do (an action column that draws nothing for it) gets no empty row.
        const acts = actions.map((c) => c.cell(r)).filter((a) => a !== null && a !== undefined && a !== false);
        return (
          <Card component="li" key={rowKey(r)} withBorder padding="sm" data-testid="row">
            {title && (
              <Box fw={600} mb={6} style={breakable}>
                {title.cell(r)}
              </Box>
            )}
            <Box component="dl" m={0}>
              {fields.map((c, i) => (
                <Group
                  key={i}
                  justify="space-between"
                  align="baseline"
                  gap={c.card === 'wide' ? 2 : 'sm'}
                  wrap={c.card === 'wide' ? 'wrap' : 'nowrap'}
                  py={4}
                  style={c.card === 'wide' ? { flexDirection: 'column', alignItems: 'stretch' } : undefined}
                >
                  <Text component="dt" size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                    {c.label}
                  </Text>
                  <Box component="dd" m={0} ta={c.card === 'wide' ? undefined : 'right'} style={breakable}>
                    {c.cell(r)}
                  </Box>
                </Group>
              ))}
            </Box>
            {acts.length > 0 && (
              <Group gap="xs" mt="xs">
                {acts.map((a, i) => (
                  <Box key={i} style={breakable}>
                    {a}
                  </Box>
                ))}
              </Group>
            )}
          </Card>
        );
      })}
    </Stack>
  );
}
