import type { Gateway } from './types';

/** Orders with nothing outstanding: no money moves, the order is recorded with a zero payment. */
export const freeGateway: Gateway = {
  id: 'free',
  accepts: (amount) => amount === 0,
  async charge() {
    return { status: 'succeeded', ref: 'free' };
  },
};
