import { describe, expect, it } from 'vitest';
import {
  admitErrors,
  admitNameForLine,
  admitSetting,
  admitSlots,
  cleanSurveyAnswers,
  missingSurveyAnswers,
  selectionAdmitSlots,
  splitName,
} from '../../src/domain/admit';

describe('admit details (spec section 5)', () => {
  it('gives every ticket a name field unless names are disabled; emails by setting', () => {
    expect(
      admitSlots({ ticketTypeId: 't', quantity: 2, names: 'optional', emails: 'disabled' }).map((s) => [s.nameRequired, s.showEmail]),
    ).toEqual([
      [false, false],
      [false, false],
    ]);
    expect(admitSlots({ ticketTypeId: 't', quantity: 1, names: 'required', emails: 'required' })[0]).toMatchObject({
      nameRequired: true,
      showEmail: true,
      emailRequired: true,
    });
    expect(admitSlots({ ticketTypeId: 't', quantity: 3, names: 'disabled', emails: 'required' })).toEqual([]);
    expect(admitSlots({ ticketTypeId: 't', quantity: 0, names: 'required', emails: 'disabled' })).toEqual([]);
    expect(admitSetting('bogus', 'optional')).toBe('optional');
  });
  it("follows named rules: 'yes' requires min names, 'optional' offers up to max, 'no' asks nothing; unlimited shows 10", () => {
    const yes = admitSlots({
      ticketTypeId: 't',
      quantity: 4,
      names: 'optional',
      emails: 'disabled',
      rules: [{ ticket_type_id: 't', named: 'yes', min: 2, max: 3 }],
    });
    expect(yes.map((s) => s.nameRequired)).toEqual([true, true, false]);
    const optional = admitSlots({
      ticketTypeId: 't',
      quantity: 12,
      names: 'optional',
      emails: 'disabled',
      rules: [{ named: 'optional', min: 0, max: -1 }],
    });
    expect(optional).toHaveLength(10);
    expect(
      admitSlots({
        ticketTypeId: 't',
        quantity: 2,
        names: 'required',
        emails: 'optional',
        rules: [{ ticket_type_id: 't', named: 'no', min: 0, max: 5 }],
      }),
    ).toEqual([]);
  });
  it('applies the ticket rules of each group only to that group', () => {
    const groups = [
      { group: { id: 'g1', meta: { admit_names: 'optional' } }, types: [{ id: 't1' }] },
      { group: { id: 'g2', meta: { admit_names: 'optional' } }, types: [{ id: 't2' }] },
    ];
    const rules = [{ ticket_group_id: 'g1', named: 'yes' as const, min: 1, max: 2 }];
    const slots = selectionAdmitSlots(groups, {}, () => 3, rules);
    expect(slots.find((s) => s.type.id === 't1')!.slots.map((s) => s.nameRequired)).toEqual([true, false]);
    expect(slots.find((s) => s.type.id === 't2')!.slots.map((s) => s.nameRequired)).toEqual([false, false, false]);
  });

  it('checks required names and emails after trimming', () => {
    const [slot] = admitSlots({ ticketTypeId: 't', quantity: 1, names: 'required', emails: 'optional' });
    expect(admitErrors(slot, { name: '   ' })).toEqual({ name: 'nameRequired' });
    expect(admitErrors(slot, { name: 'Ada', email: 'nope' })).toEqual({ email: 'emailInvalid' });
    expect(admitErrors(slot, { name: 'Ada', email: ' ada@example.org ' })).toEqual({});
  });
  it('splits names: last word is the last name, one word serves as both, empty throws', () => {
    expect(splitName('  Ada   King Lovelace ')).toEqual({ first_name: 'Ada King', last_name: 'Lovelace' });
    expect(splitName('Cher')).toEqual({ first_name: 'Cher', last_name: 'Cher' });
    expect(() => splitName('   ')).toThrow('Input must not be empty.');
    expect(admitNameForLine(' Ada  Lovelace ')).toBe('Ada Lovelace');
    expect(admitNameForLine('Cher')).toBe('Cher Cher');
    expect(admitNameForLine('  ')).toBeUndefined();
  });
});

describe('survey answers (spec section 5)', () => {
  const spec = { properties: { zip: { type: 'string' }, age: { type: 'integer' }, score: { type: 'number' } } };
  it('drops empty strings and converts number-typed answers', () => {
    expect(cleanSurveyAnswers(spec, { zip: '  ', age: '42', score: '3.5' })).toEqual({ age: 42, score: 3.5 });
    expect(cleanSurveyAnswers(spec, { zip: '10024', age: 7 })).toEqual({ zip: '10024', age: 7 });
  });
  it('lists required questions left blank', () => {
    expect(missingSurveyAnswers({ required: ['zip', 'age'] }, { zip: '  ', age: 0 })).toEqual(['zip']);
    expect(missingSurveyAnswers(null, {})).toEqual([]);
  });
  it('throws on a question without a type', () => {
    expect(() => cleanSurveyAnswers({ properties: { odd: {} } }, {})).toThrow(/no type/);
  });
});
