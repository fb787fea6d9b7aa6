// A row of choices (SegmentedControl) that scrolls sideways when it is wider than the screen, with arrow
// buttons at the edge that has more, instead of being cut off at 390 px.
import { Scroller, SegmentedControl, type SegmentedControlProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '../loading/i18n.ts';

export function ChoiceTabs(props: SegmentedControlProps) {
  const { t } = useTranslation();
  return (
    <Scroller
      maw="100%"
      miw={0}
      controlSize={28}
      startControlProps={{ 'aria-label': t('scroll.back') }}
      endControlProps={{ 'aria-label': t('scroll.forward') }}
    >
      <SegmentedControl {...props} />
    </Scroller>
  );
}
