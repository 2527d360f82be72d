import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';
import { queueMail } from '../mail';
import { OTP_LENGTH, storefrontUrl } from './tokens';

/** The mails of logging in and recovery. Queued outside any transaction (DESIGN.md section 6). */
export const OTP_MINUTES = 10;
export const RESET_MINUTES = 60;

const from = (seller: Seller) => seller.config?.mail_from as string | undefined;
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function loginPath(seller: Seller): string {
  return (seller.config?.auth?.login_path as string | undefined) || '/';
}

export async function sendOtpMail(deps: Deps, seller: Seller, to: string, code: string, token: string) {
  const link = storefrontUrl(deps, seller, loginPath(seller), { otp: code, token });
  const text = [
    `Your ${seller.name} passcode is ${code}.`,
    '',
    `Or log in with this link: ${link}`,
    '',
    `The passcode and link work once, for ${OTP_MINUTES} minutes. If you did not ask to log in, ignore this message.`,
  ].join('\n');
  const html =
    `<p>Your ${escapeHtml(seller.name)} passcode is <strong>${code}</strong>.</p><p><a href="${escapeHtml(link)}">Log in</a></p>` +
    `<p>The passcode and link work once, for ${OTP_MINUTES} minutes. If you did not ask to log in, ignore this message.</p>`;
  return queueMail(deps, {
    sellerId: seller.id,
    kind: 'login_otp',
    to,
    subject: `${seller.name}: your ${OTP_LENGTH}-digit passcode`,
    text,
    html,
    meta: { from: from(seller) },
  });
}

/** Told to the mailbox, not to the requester: the API answer is the same whether an account exists. */
export async function sendNoAccountMail(deps: Deps, seller: Seller, to: string) {
  const text =
    `Someone asked to log in to ${seller.name} with this address, but there is no account for it. ` +
    'If it was you, you can still buy tickets as a guest. Otherwise, ignore this message.';
  return queueMail(deps, {
    sellerId: seller.id,
    kind: 'login_no_account',
    to,
    subject: `${seller.name}: log in request`,
    text,
    meta: { from: from(seller) },
  });
}

export async function sendResetMail(deps: Deps, seller: Seller, to: string, token: string) {
  const link = storefrontUrl(deps, seller, '/user/reset-password', { token });
  const text = [
    `To set a new password for ${seller.name}, open this link:`,
    link,
    '',
    `It works once, for ${RESET_MINUTES} minutes. If you did not ask for it, ignore this message.`,
  ].join('\n');
  const html =
    `<p>To set a new password for ${escapeHtml(seller.name)}, <a href="${escapeHtml(link)}">open this link</a>.</p>` +
    `<p>It works once, for ${RESET_MINUTES} minutes. If you did not ask for it, ignore this message.</p>`;
  return queueMail(deps, {
    sellerId: seller.id,
    kind: 'password_reset',
    to,
    subject: `${seller.name}: set your password`,
    text,
    html,
    meta: { from: from(seller) },
  });
}
