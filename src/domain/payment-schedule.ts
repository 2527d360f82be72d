/**
 * Scheduled payments (spec sections 3, 4 and 9; issue 13): a held cart's plan of parts, each owed by its date. One
 * module for the server's rules and the checkout's display, so both work the plan out the same way.
 */
export interface SchedulePart {
  id: string;
  due_on: Date | string;
  /** minor units */
  amount: number;
  /** when the box office set the plan: payments from then on pay its parts */
  created_at?: Date | string;
}

/**
 * What the cart's payments have paid of the plan: only those made since it was set (the parts add up to what was owed
 * then, so earlier payments are already outside them).
 */
export function paidTowardsPlan(
  parts: SchedulePart[],
  payments: Array<{ amount: number; occurred_on: Date | string; status?: string }>,
): number {
  const starts = parts.map((p) => (p.created_at ? new Date(p.created_at).getTime() : 0));
  const start = starts.length ? Math.min(...starts) : 0;
  return payments
    .filter((p) => (p.status === undefined || p.status === 'succeeded') && new Date(p.occurred_on).getTime() >= start)
    .reduce((sum, p) => sum + p.amount, 0);
}

/** Spec section 4: Upcoming if the due time minus one second is still ahead, else Overdue. */
export function partStatus(due: Date | string, now: Date): 'upcoming' | 'overdue' {
  return new Date(due).getTime() - 1000 > now.getTime() ? 'upcoming' : 'overdue';
}

/** The parts still owed once `paid` (minor units) has gone to them in due order, each with what is left of it. */
export function openParts<P extends SchedulePart>(parts: P[], paid: number): Array<P & { left: number }> {
  let credit = Math.max(0, paid);
  const sorted = [...parts].sort((a, b) => new Date(a.due_on).getTime() - new Date(b.due_on).getTime() || a.id.localeCompare(b.id));
  const open: Array<P & { left: number }> = [];
  for (const part of sorted) {
    const covered = Math.min(credit, part.amount);
    credit -= covered;
    if (part.amount - covered > 0) open.push({ ...part, left: part.amount - covered });
  }
  return open;
}

/**
 * What is due now: every overdue part and the next upcoming one (spec section 9: the scheduled card payment is the
 * upcoming plus the overdue), never more than the cart owes. 0 when nothing is scheduled.
 */
export function amountDueNow(parts: SchedulePart[], paid: number, now: Date, outstanding: number): number {
  const open = openParts(parts, paid);
  const overdue = open.filter((p) => partStatus(p.due_on, now) === 'overdue');
  const next = open.find((p) => partStatus(p.due_on, now) === 'upcoming');
  const due = overdue.reduce((s, p) => s + p.left, 0) + (next?.left ?? 0);
  return Math.min(due, Math.max(0, outstanding));
}

/** Spec section 4: 'another amount' is kept between what is due and what is outstanding. */
export function clampPayment(amount: number, due: number, outstanding: number): number {
  return Math.min(Math.max(amount, due), outstanding);
}
