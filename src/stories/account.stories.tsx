import type { Story, StoryDefault } from '@ladle/react';
import { Route } from './harness/Route';
import { MEMBER_ORDER_ID, VISIT_ID } from './harness/demo';

// The logged-in member's account area (/my/*) on the recorded member: their membership, an order they made with
// its tickets, and the visit it books. mockDate: the recording's instant (harness/recorded.ts).
export default { title: 'Screens / Account', meta: { mockDate: '2026-05-04T13:00:00.000Z' } } satisfies StoryDefault;

/** /my: an active member lands on their membership card. */
export const Membership: Story = () => <Route path="/my" member />;
export const MembershipMobile: Story = () => <Route path="/my/membership" member />;
MembershipMobile.meta = { width: 390 };
export const Profile: Story = () => <Route path="/my/profile" member />;
export const Upcoming: Story = () => <Route path="/my/upcoming" member />;
export const Visit: Story = () => <Route path={`/my/upcoming/session/${VISIT_ID}`} member />;
export const Orders: Story = () => <Route path="/my/orders" member />;
export const Order: Story = () => <Route path={`/my/orders/${MEMBER_ORDER_ID}`} member />;
export const OrderMobile: Story = () => <Route path={`/my/orders/${MEMBER_ORDER_ID}`} member />;
OrderMobile.meta = { width: 390 };
/** The orders' read failed. */
export const OrdersError: Story = () => (
  <Route path="/my/orders" member replies={{ 'GET my/ticket_order': { status: 500, body: { _data: [{ _code: 'internal_error' }] } } }} />
);
/** Nobody is logged in: the account asks for a login. */
export const LoggedOut: Story = () => <Route path="/my/profile" />;
