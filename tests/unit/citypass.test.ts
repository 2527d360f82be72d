import { describe, expect, it } from 'vitest';
import { citypassCodeProblem, citypassKind, citypassSettingsIssues, normaliseCitypassCode } from '../../src/domain/citypass';

const demo = { adult_pattern: 'CPA[0-9]{8}', child_pattern: 'CPC[0-9]{8}' };

describe('CityPASS codes (spec section 8)', () => {
  it('a type is a child ticket when its name holds a child keyword, ignoring case; the default keyword is child', () => {
    expect(citypassKind('CityPASS Child')).toBe('child');
    expect(citypassKind('CityPASS Adult')).toBe('adult');
    expect(citypassKind('Youth pass', ['youth', 'kid'])).toBe('child');
    expect(citypassKind('Children', [])).toBe('child');
    expect(citypassKind('Child', ['youth'])).toBe('adult');
  });

  it('normalises spaces, hyphens and case, so one code is one code', () => {
    expect(normaliseCitypassCode(' cpa 1234-5678 ')).toBe('CPA12345678');
    expect(normaliseCitypassCode(null)).toBe('');
  });

  it('a code must match the whole pattern of its kind', () => {
    expect(citypassCodeProblem('CPA12345678', 'adult', demo)).toBeNull();
    expect(citypassCodeProblem('cpc 1234 5678', 'child', demo)).toBeNull();
    expect(citypassCodeProblem('CPC12345678', 'adult', demo)).toBe('format');
    expect(citypassCodeProblem('XCPA12345678', 'adult', demo)).toBe('format');
    expect(citypassCodeProblem('CPA123456789', 'adult', demo)).toBe('format');
    expect(citypassCodeProblem('  ', 'adult', demo)).toBe('missing');
    // No usable pattern: nothing matches (the server answers citypass_failure before it asks).
    expect(citypassCodeProblem('CPA12345678', 'adult', { child_pattern: 'CPC' })).toBe('format');
    expect(citypassCodeProblem(`CPA${'1'.repeat(60)}`, 'adult', { adult_pattern: 'CPA[0-9]+' })).toBe('format');
  });

  it('names what is wrong with an event’s settings for the seller loader', () => {
    expect(citypassSettingsIssues(demo)).toEqual([]);
    expect(citypassSettingsIssues(undefined).map((i) => i.field)).toEqual(['adult_pattern', 'child_pattern']);
    expect(citypassSettingsIssues({ ...demo, adult_pattern: '(' })).toEqual([
      { field: 'adult_pattern', message: "'(' is not a valid regular expression" },
    ]);
  });
});
