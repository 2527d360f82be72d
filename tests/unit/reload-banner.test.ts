import { AxiosError } from 'axios';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors';
import { isUnhandledApiFailure } from '../../src/app/ReloadBanner';

describe('reload banner (spec section 8)', () => {
  it('is for API failures only: ApiError and axios errors, not other rejections', () => {
    expect(isUnhandledApiFailure(new ApiError(500, 'unknown_error', 'x'))).toBe(true);
    expect(isUnhandledApiFailure(new AxiosError('Network Error', 'ERR_NETWORK'))).toBe(true);
    expect(isUnhandledApiFailure(new Error('boom'))).toBe(false);
    expect(isUnhandledApiFailure(undefined)).toBe(false);
  });
});
