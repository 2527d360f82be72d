import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * 'e2e-members': a copy of the demo for tests/e2e/membership.spec.ts (loaded by tests/e2e/setup-sellers.ts), so its
 * purchases, benefits used and auto-renew changes leave the demo as it is. Besides the demo member it has a member
 * whose Individual membership ends within the renewal period, users without a membership, and one for the saved-cards
 * spec.
 */
export const MEMBERS_SELLER = { slug: 'e2e-members', name: 'E2E Membership Museum' };
export const MEMBER_PASSWORD = 'MuseumDemo2026!';
export const RENEWING = { email: 'renewing@example.com', first: 'Robin', last: 'Renew' };
export const PLAIN = { email: 'plain@example.com', first: 'Pat', last: 'Plain' };
export const GIFT_REDEEMER = { email: 'redeemer@example.com', first: 'Remy', last: 'Redeem' };
/** tests/e2e/saved-cards.spec.ts only: the cards it saves change what this user's checkout offers first. */
export const CARD_SAVER = { email: 'saver@example.com', first: 'Sasha', last: 'Saver' };

export function addMembershipPeople(copyDir: string): void {
  const file = path.join(copyDir, 'catalog.json');
  const catalog = JSON.parse(readFileSync(file, 'utf8')) as { members: Array<Record<string, unknown>> };
  const person = (p: { email: string; first: string; last: string }) => ({
    email: p.email,
    first_name: p.first,
    last_name: p.last,
    zip_code: '10024',
    password: MEMBER_PASSWORD,
  });
  catalog.members.push(
    {
      ...person(RENEWING),
      membership: { role: 'individual', scan_code: 'M20269001', valid_from: '-340d', valid_to: '+25d', auto_renew_state: 'other' },
    },
    person(PLAIN),
    person(GIFT_REDEEMER),
    person(CARD_SAVER),
  );
  writeFileSync(file, JSON.stringify(catalog));
}
