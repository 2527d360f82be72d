import type { Story, StoryDefault } from '@ladle/react';
import { Route } from './harness/Route';
import { ADMISSION_ID, DEMO } from './harness/demo';
import type { StorefrontConfig } from '../contract/storefront';

// The screens of the layout registry (src/domain/layout.ts SCREEN_SECTIONS) as the app routes them, header and
// footer included. mockDate: the instant the demo seller's answers were recorded at (harness/recorded.ts STORY_NOW).
export default { title: 'Screens', meta: { mockDate: '2026-05-04T13:00:00.000Z' } } satisfies StoryDefault;

const detail = `/events/${ADMISSION_ID}`;
const flags = (DEMO.config.config._data.find((row) => row.key === 'storefront')?.value as StorefrontConfig).flags;
/** Membership presell on (config and flag), for the home screen. */
const presell: Partial<StorefrontConfig> = { membership_presell: true, flags: { ...flags, membership_presell: true } };

/** Home with membership presell on: heading, options (login, join, guest) and the resend link. */
export const Home: Story = () => <Route path="/" storefront={presell} />;
export const HomeMobile: Story = () => <Route path="/" storefront={presell} />;
HomeMobile.meta = { width: 390 };
/** A seller's layout (README "Layout"): the resend link first, the heading hidden. */
export const HomeSellerLayout: Story = () => <Route path="/" storefront={{ ...presell, layout: { home: ['resend', 'options'] } }} />;
/** Presell off (the demo seller as shipped): '/' goes to the admission event. */
export const HomeWithoutPresell: Story = () => <Route path="/" />;
/** A logged-in member on home is sent to the events. */
export const HomeMember: Story = () => <Route path="/" member storefront={presell} />;

export const EventsReady: Story = () => <Route path="/events" />;
export const EventsLoading: Story = () => <Route path="/events" events="loading" />;
export const EventsEmpty: Story = () => <Route path="/events" events="empty" />;
export const EventsError: Story = () => <Route path="/events" events="error" />;
/** A logged-in member: the member menu and the members' content block. */
export const EventsMember: Story = () => <Route path="/events" member />;
/** An admission in the cart: the upsell heading and the cart with its timer. */
export const EventsWithCart: Story = () => <Route path="/events" cart />;
export const EventsMobile: Story = () => <Route path="/events" cart />;
EventsMobile.meta = { width: 390 };

export const EventDetailReady: Story = () => <Route path={detail} />;
export const EventDetailLoading: Story = () => <Route path={detail} detail="loading" />;
export const EventDetailError: Story = () => <Route path={detail} detail="error" />;
/** Every day and session of the event sold out. */
export const EventDetailSoldOut: Story = () => <Route path={detail} soldOut />;
export const EventDetailMember: Story = () => <Route path={detail} member />;
export const EventDetailMobile: Story = () => <Route path={detail} cart />;
EventDetailMobile.meta = { width: 390 };

/** An event that does not exist: the 404 screen. */
export const NotFound: Story = () => <Route path="/events/00000000-0000-4000-8000-000000000000" />;
export const NotFoundMobile: Story = () => <Route path="/no-such-page" />;
NotFoundMobile.meta = { width: 390 };
