import { useState } from 'react';
import type { Story, StoryDefault } from '@ladle/react';
import { CalendarModal } from '../components/CalendarModal';
import { ContentBlock } from '../components/ContentBlock';
import { DatePicker } from '../components/DatePicker';
import { FlexiblePriceInput } from '../components/FlexiblePriceInput';
import { LoadFailed } from '../components/LoadFailed';
import { QuantityStepper } from '../components/QuantityStepper';
import { SessionPicker } from '../components/SessionPicker';
import { StoryApp } from './harness/StoryApp';
import { DEMO, admissionEvent } from './harness/demo';
import '../styles/reserve.css';

// The reservation flow's controls on the demo seller's recorded calendar and sessions.
// mockDate: the instant the demo seller's answers were recorded at (harness/recorded.ts STORY_NOW).
export default { title: 'Components / Controls', meta: { mockDate: '2026-05-04T13:00:00.000Z' } } satisfies StoryDefault;

const calendar = DEMO.calendar.calendar._data;
const sessions = DEMO.sessions.event_session._data;
const seller = DEMO.config.seller._data[0];
const soldOut = sessions.map((s) => ({ ...s, sold_out: true, availableCapacity: 0 }));
const tabs = admissionEvent.config?.web?.session_picker_tabs;
const threshold = 10;
const typeName = DEMO.admission.ticket_type?._data[0]?.name ?? '';

function Dates({ days }: { days: typeof calendar }) {
  const [date, setDate] = useState<string | null>(null);
  const open = days.filter((d) => d.enabled).slice(0, 8);
  return <DatePicker buttons={open} calendar={days} selectedDate={date} currency={seller.currency} onSelect={setDate} />;
}

export const DatePickerReady: Story = () => (
  <StoryApp>
    <Dates days={calendar} />
  </StoryApp>
);
export const DatePickerEmpty: Story = () => (
  <StoryApp>
    <Dates days={[]} />
  </StoryApp>
);
export const DatePickerSoldOut: Story = () => (
  <StoryApp>
    <Dates days={calendar.map((d) => ({ ...d, status: 'sold_out' as const, enabled: false }))} />
  </StoryApp>
);
export const DatePickerMobile: Story = () => (
  <StoryApp>
    <Dates days={calendar} />
  </StoryApp>
);
DatePickerMobile.meta = { width: 390 };

export const Calendar: Story = () => (
  <StoryApp>
    <CalendarModal calendar={calendar} selectedDate={calendar[1].date} currency={seller.currency} onSelect={() => {}} onClose={() => {}} />
  </StoryApp>
);
export const CalendarMobile: Story = () => (
  <StoryApp>
    <CalendarModal calendar={calendar} selectedDate={null} currency={seller.currency} onSelect={() => {}} onClose={() => {}} />
  </StoryApp>
);
CalendarMobile.meta = { width: 390 };

function Sessions({ rows }: { rows: typeof sessions }) {
  const [id, setId] = useState<string | null>(null);
  return (
    <SessionPicker
      sessions={rows}
      tabsConfig={tabs}
      timezone={seller.timezone}
      selectedId={id}
      remainingThreshold={threshold}
      onSelect={setId}
    />
  );
}
export const SessionsReady: Story = () => (
  <StoryApp>
    <Sessions rows={sessions} />
  </StoryApp>
);
export const SessionsEmpty: Story = () => (
  <StoryApp>
    <Sessions rows={[]} />
  </StoryApp>
);
export const SessionsSoldOut: Story = () => (
  <StoryApp>
    <Sessions rows={soldOut} />
  </StoryApp>
);
/** Few places left: '{count} left' under the threshold. */
export const SessionsNearlyFull: Story = () => (
  <StoryApp>
    <Sessions rows={sessions.map((s, i) => ({ ...s, availableCapacity: i % 3 === 0 ? 2 : s.availableCapacity }))} />
  </StoryApp>
);
export const SessionsMobile: Story = () => (
  <StoryApp>
    <Sessions rows={sessions} />
  </StoryApp>
);
SessionsMobile.meta = { width: 390 };

function Stepper({ max }: { max: number }) {
  const [count, setCount] = useState(0);
  return (
    <QuantityStepper
      name={typeName}
      count={count}
      canIncrement={count < max}
      canDecrement={count > 0}
      onIncrement={() => setCount(count + 1)}
      onDecrement={() => setCount(count - 1)}
    />
  );
}
export const Quantity: Story = () => (
  <StoryApp>
    <Stepper max={10} />
  </StoryApp>
);
/** No places left: the + button is off. */
export const QuantitySoldOut: Story = () => (
  <StoryApp>
    <Stepper max={0} />
  </StoryApp>
);

function Price({ start }: { start: string }) {
  const [value, setValue] = useState(start);
  const n = Number(value);
  return (
    <FlexiblePriceInput
      name={typeName}
      value={value}
      min="5.00"
      max="500.00"
      minLabel="$5.00"
      maxLabel="$500.00"
      invalid={value !== '' && (n < 5 || n > 500)}
      onChange={setValue}
    />
  );
}
export const FlexiblePrice: Story = () => (
  <StoryApp>
    <Price start="25.00" />
  </StoryApp>
);
export const FlexiblePriceError: Story = () => (
  <StoryApp>
    <Price start="1.00" />
  </StoryApp>
);

export const LoadError: Story = () => (
  <StoryApp>
    <LoadFailed onRetry={() => {}} />
  </StoryApp>
);

/** The seller's content blocks as GET config has them (sanitised on load). */
export const ContentBlocks: Story = () => {
  const blocks = (DEMO.config.config._data.find((row) => row.key === 'content_blocks')?.value ?? []) as { name: string; html: string }[];
  return (
    <StoryApp>
      {blocks.map((b) => (
        <ContentBlock key={b.name} name={b.name} html={b.html} />
      ))}
    </StoryApp>
  );
};
