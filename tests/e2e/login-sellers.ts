/** Copies of the demo seller with other login modes, loaded by tests/e2e/setup-sellers.ts (shared with the
 *  specs without running the setup). Each has the demo member: member@example.com / MuseumDemo2026!,
 *  member id M20260001, ZIP 10024, last name Rivera. */
export interface LoginSellerDef {
  slug: string;
  name: string;
  auth: Record<string, unknown>;
  presell?: boolean;
}

export const LOGIN_SELLERS = {
  otp: { slug: 'e2e-otp', name: 'E2E Passcode Museum', auth: { method: 'otp', login_path: '/login/callback' } },
  otpOrPassword: {
    slug: 'e2e-otppw',
    name: 'E2E Passcode Or Password Museum',
    auth: { method: 'otp_or_password', login_path: '/login/callback' },
  },
  scanCode: { slug: 'e2e-scan', name: 'E2E Member Id Museum', auth: { method: 'scan_code' } },
  scanCodeLastName: { slug: 'e2e-lastname', name: 'E2E Last Name Museum', auth: { method: 'scan_code_last_name' } },
  none: { slug: 'e2e-none', name: 'E2E No Login Museum', auth: { method: 'none' } },
  hosted: { slug: 'e2e-hosted', name: 'E2E Hosted Login Museum', auth: { method: 'hosted', external_login_url: null } },
  presell: { slug: 'e2e-presell', name: 'E2E Presell Museum', auth: { method: 'password' }, presell: true },
} satisfies Record<string, LoginSellerDef>;

export const DEMO_MEMBER = {
  email: 'member@example.com',
  password: 'MuseumDemo2026!',
  scanCode: 'M20260001',
  zip: '10024',
  lastName: 'Rivera',
  firstName: 'Jordan',
};
