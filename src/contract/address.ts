import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import { Body, Row, SellerQuery, Text } from './primitives';

/**
 * Address lookup (issue 22; spec sections 3 'Address lookup items', 7 'find (Text or Container) and retrieve (id)',
 * 8 'Address lookup errors switch to manual entry'). The storefront asks our server; only the server talks to the
 * provider, with the key the seller configured (ADDRESS_LOOKUP_URL, ADDRESS_LOOKUP_KEY), which never reaches a
 * browser. The answers are our own shape, whatever the provider's is.
 */

/** One suggestion: an address (`Type` 'Address'), or a container of addresses (a building, a street) to open. */
export const AddressSuggestion = Row({
  Id: Text(200, { minLength: 1 }),
  Type: Text(40),
  Text: Text(200),
  Description: Text(200),
});
export type AddressSuggestion = Static<typeof AddressSuggestion>;

export const AddressFindAnswer = Row({ items: Type.Array(AddressSuggestion, { maxItems: 100 }) });
export type AddressFindAnswer = Static<typeof AddressFindAnswer>;

/** A full address: what a pick fills in (Line1 to Line5, City, Province, ProvinceCode, PostalCode). */
export const AddressRow = Row({
  Line1: Text(200),
  Line2: Text(200),
  Line3: Text(200),
  Line4: Text(200),
  Line5: Text(200),
  City: Text(200),
  Province: Text(200),
  ProvinceCode: Text(40),
  PostalCode: Text(40),
  CountryIso2: Text(2),
});
export type AddressRow = Static<typeof AddressRow>;

export const AddressRetrieveAnswer = Row({ items: Type.Array(AddressRow, { maxItems: 10 }) });
export type AddressRetrieveAnswer = Static<typeof AddressRetrieveAnswer>;

export const addressRoutes = {
  find: route({
    method: 'POST',
    url: '/address/find',
    schema: {
      summary: 'Address suggestions for what the visitor typed (Text), or the addresses inside a container (Container)',
      tags: ['checkout'],
      querystring: SellerQuery,
      body: Body({
        text: Type.Optional(Text(200)),
        container: Type.Optional(Text(200, { minLength: 1 })),
      }),
      response: answers(AddressFindAnswer),
    },
  }),
  retrieve: route({
    method: 'POST',
    url: '/address/retrieve',
    schema: {
      summary: 'The full address of a suggestion, by its id: the lines, city, province and postal code a pick fills in',
      tags: ['checkout'],
      querystring: SellerQuery,
      body: Body({ id: Text(200, { minLength: 1 }) }),
      response: answers(AddressRetrieveAnswer),
    },
  }),
};
