// The CAGR calculator's arithmetic (features/cagr/cagr.ts): each of the four quantities solved
// from the other three, bad values refused with a message on their field, dates measured in
// calendar years, and numbers read as the reader's locale writes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  dateAfterYears,
  growthPath,
  parseIsoDate,
  parseLocaleNumber,
  formatForInput,
  solveCagr,
  yearsBetween,
  type CagrInputs,
  type CagrOutcome,
} from './cagr';

const inputs = (given: Partial<CagrInputs>): CagrInputs => ({ start: null, end: null, rate: null, periods: null, ...given });
const solvedValues = (outcome: CagrOutcome) => {
  assert.equal(outcome.kind, 'solved', JSON.stringify(outcome));
  return (outcome as Extract<CagrOutcome, { kind: 'solved' }>).values;
};
const close = (actual: number, expected: number, digits = 9) =>
  assert.ok(Math.abs(actual - expected) < 10 ** -digits, `${actual} ≠ ${expected}`);

describe('solving the CAGR equation', () => {
  it('finds the rate: 100 → 200 in 5 periods is 14.87 % a period', () => {
    const values = solvedValues(solveCagr(inputs({ start: 100, end: 200, periods: 5 })));
    close(values.rate, 2 ** (1 / 5) - 1);
    close(values.rate, 0.148698355, 8);
  });

  it('finds a negative rate for a shrinking value', () => {
    close(solvedValues(solveCagr(inputs({ start: 200, end: 100, periods: 1 }))).rate, -0.5);
  });

  it('finds the end, the start and the periods, each consistent with the others', () => {
    close(solvedValues(solveCagr(inputs({ start: 1000, rate: 0.1, periods: 2 }))).end, 1210, 6);
    close(solvedValues(solveCagr(inputs({ end: 1210, rate: 0.1, periods: 2 }))).start, 1000, 6);
    close(solvedValues(solveCagr(inputs({ start: 1000, end: 1210, rate: 0.1 }))).periods, 2, 9);
    // Fractional periods: doubling at 7 % takes a little over ten years.
    close(solvedValues(solveCagr(inputs({ start: 1, end: 2, rate: 0.07 }))).periods, Math.log(2) / Math.log(1.07));
  });

  it('says which quantity it solved and keeps the given ones', () => {
    const outcome = solveCagr(inputs({ start: 50, end: 80, periods: 3 }));
    assert.equal(outcome.kind === 'solved' && outcome.solved, 'rate');
    const values = solvedValues(outcome);
    assert.deepEqual([values.start, values.end, values.periods], [50, 80, 3]);
  });

  it('asks for exactly one empty value', () => {
    assert.deepEqual(solveCagr(inputs({ start: 1 })), {
      kind: 'incomplete',
      message: 'Fill in three of the four values: the calculator finds the one left empty.',
    });
    assert.deepEqual(solveCagr(inputs({ start: 1, end: 2, rate: 0.1, periods: 3 })), {
      kind: 'incomplete',
      message: 'Leave one value empty: the calculator fills it in.',
    });
  });

  it('refuses values at or below zero, rates at or below −100 % and too many periods, each on its field', () => {
    const outcome = solveCagr(inputs({ start: 0, end: -5, rate: -1, periods: 0 }));
    assert.deepEqual(outcome, {
      kind: 'invalid',
      problems: {
        start: 'The start value must be above zero.',
        end: 'The end value must be above zero.',
        rate: 'The growth rate must be above −100 %.',
        periods: 'The number of periods must be above zero.',
      },
    });
    assert.deepEqual(solveCagr(inputs({ start: 1, end: 2, periods: 1001 })), {
      kind: 'invalid',
      problems: { periods: 'The number of periods must be 1000 or fewer.' },
    });
    assert.equal(solveCagr(inputs({ start: Number.NaN, end: 2, periods: 1 })).kind, 'invalid');
  });

  it('refuses periods no growth can give', () => {
    assert.deepEqual(solveCagr(inputs({ start: 1, end: 2, rate: 0 })), {
      kind: 'invalid',
      problems: { rate: 'At 0 % growth the value never changes: enter a rate other than 0 %.' },
    });
    assert.deepEqual(solveCagr(inputs({ start: 2, end: 2, rate: 0.1 })), {
      kind: 'invalid',
      problems: { end: 'The end value equals the start value: any growth other than 0 % moves away from it.' },
    });
    assert.deepEqual(solveCagr(inputs({ start: 2, end: 1, rate: 0.1 })), {
      kind: 'invalid',
      problems: { end: 'A positive rate only grows: the end value must be above the start value.' },
    });
    assert.deepEqual(solveCagr(inputs({ start: 1, end: 2, rate: -0.1 })), {
      kind: 'invalid',
      problems: { end: 'A negative rate only shrinks: the end value must be below the start value.' },
    });
    assert.equal(solveCagr(inputs({ start: 1, end: 1e300, rate: 0.0001 })).kind, 'invalid');
  });

  it('gives no answer rather than Infinity when the result overflows', () => {
    assert.deepEqual(solveCagr(inputs({ start: 1e300, rate: 100, periods: 1000 })), {
      kind: 'incomplete',
      message: 'These values give a result too large or too small to compute.',
    });
  });
});

describe('the growth path', () => {
  it('has a point per whole period and one at a fractional end', () => {
    const path = growthPath(100, 0.1, 2.5);
    assert.deepEqual(path.map((point) => point.period), [0, 1, 2, 2.5]);
    close(path[2]!.value, 121, 9);
    close(path[3]!.value, 100 * 1.1 ** 2.5, 9);
  });

  it('thins out a long path, keeping its ends', () => {
    const path = growthPath(1, 0.01, 1000, 60);
    assert.ok(path.length <= 61, String(path.length));
    assert.equal(path[0]!.period, 0);
    assert.equal(path.at(-1)!.period, 1000);
  });
});

describe('dates', () => {
  it('reads only real calendar dates', () => {
    assert.deepEqual(parseIsoDate('2024-02-29'), [2024, 2, 29]);
    assert.equal(parseIsoDate('2023-02-29'), null);
    assert.equal(parseIsoDate('2023-13-01'), null);
    assert.equal(parseIsoDate('01/02/2023'), null);
    assert.equal(parseIsoDate(''), null);
  });

  it('counts whole calendar years and the rest in days of that year', () => {
    assert.equal(yearsBetween([2020, 1, 1], [2025, 1, 1]), 5);
    assert.equal(yearsBetween([2021, 1, 1], [2021, 7, 2]), 182 / 365);
    assert.equal(yearsBetween([2020, 6, 15], [2021, 6, 14]), 364 / 365);
    // From a leap day: its anniversary in a common year is 1 March.
    assert.equal(yearsBetween([2020, 2, 29], [2021, 3, 1]), 1);
  });

  it('has no years when the end is not after the start', () => {
    assert.equal(yearsBetween([2020, 1, 1], [2020, 1, 1]), null);
    assert.equal(yearsBetween([2021, 1, 1], [2020, 1, 1]), null);
  });

  it('finds the date some years later', () => {
    assert.equal(dateAfterYears([2020, 1, 1], 5), '2025-01-01');
    assert.equal(dateAfterYears([2021, 1, 1], 182 / 365), '2021-07-02');
  });
});

describe('numbers as the reader types them', () => {
  it('reads English, German and French separators', () => {
    assert.equal(parseLocaleNumber('1,234.5', 'en-US'), 1234.5);
    assert.equal(parseLocaleNumber('1.234,5', 'de-DE'), 1234.5);
    assert.equal(parseLocaleNumber('1 234,5', 'fr-FR'), 1234.5);
    assert.equal(parseLocaleNumber('−7,5', 'de-DE'), -7.5);
  });

  it('reads a point as a group separator where the locale groups with it', () => {
    assert.equal(parseLocaleNumber('12.500', 'de-DE'), 12500);
  });

  it('refuses what is not a number', () => {
    for (const text of ['', 'abc', '1.2.3', '12%', '--1']) assert.equal(parseLocaleNumber(text, 'en-US'), null, text);
  });

  it('writes a number back as the reader types it', () => {
    assert.equal(formatForInput(1234.5, 'de-DE'), '1234,5');
    assert.equal(formatForInput(1234.5, 'en-US'), '1234.5');
  });
});
