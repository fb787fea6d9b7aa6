// A table of rows in a horizontal scroll (usable at 390 px), with a column per field and an empty state.
import { ScrollArea, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface Column<T> {
  label: string;
  cell: (row: T) => ReactNode;
  align?: 'right';
}

export function Rows<T>({
  rows,
  columns,
  rowKey,
  testId,
  minWidth = 640,
}: {
  rows: T[] | undefined;
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  testId?: string;
  minWidth?: number;
}) {
  const { t } = useTranslation();
  return (
    <>
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
              <Table.Tr key={rowKey(r)}>
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
      {rows?.length === 0 && <Text c="dimmed">{t('common.empty')}</Text>}
    </>
  );
}
