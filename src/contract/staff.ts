import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import { Body, IdParams, IsoDate, Literals, OrNull, Row, SellerQuery, Text, Uuid } from './primitives';

/**
 * Support staff and preview (issue 18). A member of staff (the seller folder's staff.json) logs in here, apart from
 * shoppers (their own cookie), and may look at the storefront as a kind of visitor would see it: the API then answers
 * that staff member's requests as it answers that visitor (members-only events and groups, member prices, the renewal
 * notice), and refuses every change (`preview_read_only`): nothing is bought or booked in preview.
 */
export const PreviewRole = Literals('anonymous', 'logged_in', 'member', 'expired_member');
export type PreviewRole = Static<typeof PreviewRole>;

export const StaffPreview = Row({
  role: PreviewRole,
  /** 'YYYY-MM-DD': the day the storefront is shown on (null: today) */
  date: Type.Optional(OrNull(IsoDate)),
  /** a member's level (role id; null: the seller's first) */
  level: Type.Optional(OrNull(Uuid)),
  /** the content blocks shown, by name (null: the seller's, as visitors see them) */
  blocks: Type.Optional(OrNull(Type.Array(Text(64, { minLength: 1 }), { maxItems: 100 }))),
});
export type StaffPreview = Static<typeof StaffPreview>;

export const StaffAnswer = Row({
  staff: Row({ name: Type.String(), email: Type.String() }),
  preview: OrNull(StaffPreview),
});
export type StaffAnswer = Static<typeof StaffAnswer>;

export const staffRoutes = {
  login: route({
    method: 'POST',
    url: '/staff/login',
    schema: {
      summary: 'A member of staff logs in (staff.json of the seller folder); sets the staff cookie',
      tags: ['staff'],
      querystring: SellerQuery,
      body: Body({ email: Text(254, { minLength: 3 }), password: Text(254, { minLength: 1 }) }),
      response: answers(StaffAnswer),
    },
  }),
  me: route({
    method: 'GET',
    url: '/staff/me',
    schema: {
      summary: 'The logged-in member of staff and the preview they look through (401 for anybody else)',
      tags: ['staff'],
      querystring: SellerQuery,
      response: answers(StaffAnswer),
    },
  }),
  preview: route({
    method: 'PUT',
    url: '/staff/preview',
    schema: {
      summary: 'Starts or changes the preview: the storefront as this kind of visitor, on this day, with these blocks',
      tags: ['staff'],
      querystring: SellerQuery,
      body: StaffPreview,
      response: answers(StaffAnswer),
    },
  }),
  endPreview: route({
    method: 'DELETE',
    url: '/staff/preview',
    schema: {
      summary: 'Ends the preview: the storefront as the member of staff sees it',
      tags: ['staff'],
      querystring: SellerQuery,
      response: answers(StaffAnswer),
    },
  }),
  paymentSchedule: route({
    method: 'PUT',
    url: '/staff/cart/:id/payment_schedule',
    schema: {
      summary:
        "The box office puts a visitor's cart on a payment plan (issue 13): parts adding up to what it owes, each with its due time; the cart is held from then on",
      tags: ['staff'],
      params: IdParams,
      querystring: SellerQuery,
      body: Body({
        parts: Type.Array(
          Body({
            due_date: Type.String({ format: 'date-time', maxLength: 40 }),
            amount: Type.String({ maxLength: 20, pattern: '^\\d{1,7}(\\.\\d{1,2})?$' }),
          }),
          { minItems: 1, maxItems: 24 },
        ),
      }),
      response: answers(Row({ cart_id: Uuid, parts: Type.Integer() })),
    },
  }),
  logout: route({
    method: 'POST',
    url: '/staff/logout',
    schema: {
      summary: 'Ends the staff session (and its preview); clears the staff cookie',
      tags: ['staff'],
      querystring: SellerQuery,
      response: answers(Row({ logged_out: Type.Literal(true) })),
    },
  }),
};
