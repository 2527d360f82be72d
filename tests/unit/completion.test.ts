import { describe, expect, it } from 'vitest';
import { completedOrderRedirect } from '../../src/domain/completion';

describe('the external completed-order address (spec section 2)', () => {
  it('receives the order ids, keeping its own query', () => {
    expect(completedOrderRedirect('https://museum.example.org/thanks', ['a', 'b'])).toBe(
      'https://museum.example.org/thanks?orderIds=a%2Cb',
    );
    expect(completedOrderRedirect('https://museum.example.org/thanks?src=web&orderIds=old', ['c'])).toBe(
      'https://museum.example.org/thanks?src=web&orderIds=c',
    );
  });
});
