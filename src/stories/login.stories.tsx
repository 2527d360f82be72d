import type { Story, StoryDefault } from '@ladle/react';
import { LoginDialog } from '../components/login/LoginDialog';
import { LoginForm } from '../components/login/LoginForm';
import { LoginAlert } from '../components/login/LoginMessageText';
import { StoryApp } from './harness/StoryApp';
import '../styles/checkout.css';

// mockDate: the instant the demo seller's answers were recorded at (harness/recorded.ts STORY_NOW).
export default { title: 'Components / Login', meta: { mockDate: '2026-05-04T13:00:00.000Z' } } satisfies StoryDefault;

/** The demo seller's login mode (password) in the header's dialog. */
export const Dialog: Story = () => (
  <StoryApp>
    <LoginDialog onClose={() => {}} />
  </StoryApp>
);

/** Before checkout: 'Shop as a Guest' or log in. */
export const DialogWithGuest: Story = () => (
  <StoryApp>
    <LoginDialog withGuest next="/checkout" onClose={() => {}} />
  </StoryApp>
);
DialogWithGuest.meta = { width: 390 };

/** The one-time passcode mode: the e-mail step. */
export const FormOtp: Story = () => (
  <StoryApp storefront={{ auth: { method: 'otp' } }}>
    <LoginForm onSuccess={() => {}} />
  </StoryApp>
);

export const FormPassword: Story = () => (
  <StoryApp>
    <LoginForm onSuccess={() => {}} />
  </StoryApp>
);

/** The spec's refusal texts as the flow shows them (i18n keys; seller strings may replace them). */
export const Errors: Story = () => (
  <StoryApp>
    <LoginAlert error={{ key: 'login.errors.incorrectPassword' }} notes={[{ key: 'login.otp.remainingAttempts', values: { count: 2 } }]} />
  </StoryApp>
);
