import type { Gateway } from './types';

/** Orders with nothing outstanding: no money moves, the order is recorded with a zero payment. */
export const freeGateway: Gateway = {
  id: 'free',
  accepts: (amount) => amount === 0,
  async charge() {
    return { status: 'succeeded', ref: 'free' };
  },
  // Nothing was charged: an attempt cut short goes back to the shopper, who may simply try again.
  async lookup() {
    return { status: 'none' };
  },
  async refund() {},
  async forget() {},
};
