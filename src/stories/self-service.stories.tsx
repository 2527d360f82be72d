import type { Story, StoryDefault } from '@ladle/react';
import { Route } from './harness/Route';
import { DEMO, ORDER_ID } from './harness/demo';
import { ok } from './harness/story-api';

// The screens a shopper helps themselves with: resend tickets, manage an order (the e-mail's link) and the account
// recovery screens. mockDate: the recording's instant (harness/recorded.ts).
export default { title: 'Screens / Self-service', meta: { mockDate: '2026-05-04T13:00:00.000Z' } } satisfies StoryDefault;

export const Resend: Story = () => <Route path="/resend" />;
export const ResendMobile: Story = () => <Route path="/resend" />;
ResendMobile.meta = { width: 390 };

/** The guest's order from its manage link: its tickets and what may be done with them (a paid order: nothing). */
export const Manage: Story = () => <Route path={`/manage/${ORDER_ID}`} />;
export const ManageMobile: Story = () => <Route path={`/manage/${ORDER_ID}`} />;
ManageMobile.meta = { width: 390 };
export const ManageLoading: Story = () => (
  <Route path={`/manage/${ORDER_ID}`} replies={{ [`GET ticket_order/${ORDER_ID}/self_edit`]: 'pending' }} />
);
/** A link to an order that is not this visitor's (or does not exist). */
export const ManageNotFound: Story = () => <Route path="/manage/00000000-0000-4000-8000-000000000000" />;

export const ForgotPassword: Story = () => <Route path="/user/forgot-password" />;
export const ForgotPasswordMobile: Story = () => <Route path="/user/forgot-password" />;
ForgotPasswordMobile.meta = { width: 390 };
export const ForgotMembership: Story = () => <Route path="/user/forgot-membership" />;
export const CreateAccount: Story = () => <Route path="/user/create-account" />;
/** A reset link whose token the API accepts for the demo member's address: the new password and its checklist. */
export const ResetPassword: Story = () => (
  <Route
    path="/user/reset-password?token=story"
    replies={{ 'POST password_reset/validate': ok({ identity: { _data: [{ email: DEMO.user.user._data[0].email ?? '' }], _count: 1 } }) }}
  />
);
/** A reset link the API does not know: its 404 (a story's default answer), 'This reset link is not valid'. */
export const ResetPasswordInvalid: Story = () => <Route path="/user/reset-password?token=story" />;
