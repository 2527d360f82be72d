import type { Story, StoryDefault } from '@ladle/react';
import { SeatLegend } from '../components/seat-map/SeatLegend';
import { SeatMark } from '../components/seat-map/SeatMark';
import type { SeatState } from '../contract/seating';
import { StoryApp } from './harness/StoryApp';
import { DEMO } from './harness/demo';
import '../styles/seats.css';

// mockDate: the instant the demo seller's answers were recorded at (harness/recorded.ts STORY_NOW).
export default { title: 'Components / Seat map', meta: { mockDate: '2026-05-04T13:00:00.000Z' } } satisfies StoryDefault;

const groups = DEMO.admission.ticket_group?._data ?? [];
const palette = ['#1f4e79', '#b5542c'];
const SEAT_STATES: SeatState[] = ['available', 'booked', 'unavailable', 'selected'];
const needs = groups.slice(0, 2).map((group, i) => ({ group, count: 1, color: palette[i], types: [] }));

export const LegendOneGroup: Story = () => (
  <StoryApp>
    <SeatLegend needs={needs.slice(0, 1)} />
  </StoryApp>
);

export const LegendTwoGroups: Story = () => (
  <StoryApp>
    <SeatLegend needs={needs} />
  </StoryApp>
);

/** A seat in each state (sold out is 'booked'). */
export const Seats: Story = () => (
  <StoryApp>
    <svg className="seat-map" viewBox="-15 -15 130 30" width={260} height={60} aria-hidden="true">
      {SEAT_STATES.map((state, i) => (
        <g key={state} className={`seat seat--${state}`} transform={`translate(${i * 30} 0)`}>
          <SeatMark r={10} state={state} color={palette[0]} />
        </g>
      ))}
    </svg>
  </StoryApp>
);
