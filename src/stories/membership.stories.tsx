import type { Story, StoryDefault } from '@ladle/react';
import { Route } from './harness/Route';
import { DEMO } from './harness/demo';

// The membership purchase: the membership event's detail is the buy-membership form (its levels are the event's
// membership group's types), /membership without a membership event, and a gift's redemption.
// mockDate: the recording's instant (harness/recorded.ts).
export default { title: 'Screens / Membership', meta: { mockDate: '2026-05-04T13:00:00.000Z' } } satisfies StoryDefault;

const form = `/events/${DEMO.membershipEvent.event_template._data[0].id}`;
/** A guest buying a membership: the levels, the member's details, gift or for me. */
export const Form: Story = () => <Route path={form} />;
export const FormMobile: Story = () => <Route path={form} />;
FormMobile.meta = { width: 390 };
/** The demo member (a current membership): the form offers the renewal. */
export const FormMember: Story = () => <Route path={form} member />;
/** The levels' read has not answered. */
export const FormLoading: Story = () => <Route path={form} replies={{ 'GET membership_rules': 'pending' }} />;
/** A seller without a membership event: 'Memberships are not available at this time.' */
export const Unavailable: Story = () => <Route path="/membership" storefront={{ membership_event_id: null }} />;
/** /membership/redeem for a logged-in member: the gift code's form. */
export const Redeem: Story = () => <Route path="/membership/redeem" member />;
