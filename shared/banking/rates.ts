import {
  APPLICATION_TYPES,
  DEPOSIT_RATE_TYPES,
  LENDING_RATE_TYPES,
  LOAN_PURPOSES,
  RATE_APPLICABILITY_TYPES,
  REPAYMENT_TYPES,
  UNITS_OF_MEASURE,
} from './enums.js';
import { at, type NoteSink } from './notes.js';
import { asNumber, isObject, numberToString, omit, present, type Json, type JsonObject } from './values.js';

/**
 * Deposit and lending rates, their tiers and conditions → the 2.0.0 form: tier bounds as strings
 * (`minimumValueString`, `maximumValueString`; non-numeric text kept as written), conditions as
 * a list (`applicabilityConditionList`), and the fields 2.0.0 made required.
 */

export interface RateContext {
  /** productCategory of the record, for the one decision that depends on it. */
  productCategory: string | undefined;
}

/** Bounds of nine or more 9s mean "no upper bound" (AMP: 999999999999.99). */
const SENTINEL_MAXIMUM = /^9{9,}(\.9+)?$/;

function flagUnknown(value: Json | undefined, known: readonly string[], path: string, field: string, notes: NoteSink): void {
  if (typeof value === 'string' && !known.includes(value))
    notes.add(path, 'unknown-value', `${field} "${value}" kept as sent`, `Not a ${field} value of Data API 2.0.0.`);
}

/**
 * Conditions, in any shape, → a list of `{ rateApplicabilityType, additionalValue?, additionalInfo?, additionalInfoUri? }`.
 * Decision (ambiguity 15): an old single condition object had no type, so it becomes OTHER, the one
 * faithful type. OTHER needs additionalInfo: a URI-only object keeps its URI and gets no invented
 * text (noted). Empty objects and null carry nothing and are omitted.
 */
function normalizeConditions(value: Json | undefined, path: string, notes: NoteSink): Json[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    return value.map((c, i) => {
      if (!isObject(c)) return c;
      const type = c.rateApplicabilityType;
      if (typeof type === 'string') flagUnknown(type, RATE_APPLICABILITY_TYPES, at(path, i), 'rateApplicabilityType', notes);
      else if (!present(type)) {
        notes.add(
          at(at(path, i), 'rateApplicabilityType'),
          'guessed',
          'rateApplicabilityType = OTHER',
          'The condition has no type; OTHER is the only type that claims nothing.',
        );
        return { rateApplicabilityType: 'OTHER', ...c };
      }
      return c;
    });
  }
  if (!isObject(value)) {
    notes.add(path, 'invalid', 'kept a condition that is not an object as sent', 'Conditions are objects.');
    return [value];
  }
  const info = value.additionalInfo;
  const uri = value.additionalInfoUri;
  if (!present(info) && !present(uri)) return undefined;
  const condition: JsonObject = { rateApplicabilityType: 'OTHER', ...omit(value, ['rateApplicabilityType']) };
  if (!present(info)) {
    notes.add(
      at(path, 0),
      'ambiguous',
      'rateApplicabilityType OTHER with only additionalInfoUri',
      'OTHER requires additionalInfo; the source condition has only a link, and no text was invented.',
    );
  }
  return [condition];
}

/** Moves `from` (any shape) to the list field, keeping the key's position in the record. */
/**
 * `record` with key `from` renamed to `to` (in its place) and set to `value` (undefined drops it).
 * `record` is the caller's own copy and may be changed in place: when there is nothing to rename
 * (the usual case once sources are in the 2.0.0 names) no copy is made, and key order is the same.
 */
function replaceKey(record: JsonObject, from: string, to: string, value: Json | undefined): JsonObject {
  if (from === to || !(from in record)) {
    if (value === undefined) delete record[to];
    else record[to] = value;
    return record;
  }
  const out: JsonObject = {};
  let placed = false;
  for (const k in record) {
    if (k === from || k === to) {
      if (!placed && value !== undefined) out[to] = value;
      placed = true;
      continue;
    }
    out[k] = record[k]!;
  }
  if (!placed && value !== undefined) out[to] = value;
  return out;
}

function boundToString(value: Json, path: string, notes: NoteSink): string {
  if (typeof value === 'number') return numberToString(value);
  if (typeof value === 'string') return value;
  notes.add(path, 'invalid', `bound ${JSON.stringify(value)} read as text`, 'Tier bounds are numbers (old) or strings (2.0.0).', value);
  return JSON.stringify(value);
}

export function normalizeTier(tier: JsonObject, path: string, notes: NoteSink): JsonObject {
  let out: JsonObject = { ...tier };

  // Decision (ambiguity 10): name is required; a tier without one is named from its bounds, noted.
  if (!present(out.name)) {
    const min = out.minimumValueString ?? out.minimumValue;
    const max = out.maximumValueString ?? out.maximumValue;
    const name = `${present(min) ? String(min) : '…'}–${present(max) ? String(max) : '…'} ${String(out.unitOfMeasure ?? '')}`.trim();
    out = { name, ...omit(out, ['name']) };
    notes.add(
      at(path, 'name'),
      'guessed',
      `name = "${String(out.name)}" (from the bounds)`,
      'A tier name is required; the source tier has none.',
    );
  }

  // Decision (ambiguity 11): unitOfMeasure is read case-insensitively ("Dollar" → DOLLAR), noted.
  if (typeof out.unitOfMeasure === 'string') {
    const unit = out.unitOfMeasure.trim().toUpperCase();
    if (unit !== out.unitOfMeasure) {
      notes.add(
        at(path, 'unitOfMeasure'),
        'invalid',
        `unitOfMeasure "${out.unitOfMeasure}" read as "${unit}"`,
        'Enum values are upper case.',
        out.unitOfMeasure,
      );
      out.unitOfMeasure = unit;
    }
    flagUnknown(unit, UNITS_OF_MEASURE, at(path, 'unitOfMeasure'), 'unitOfMeasure', notes);
  }

  // Lower bound. Decision (ambiguity 13): required; a null or absent minimum is read as "0" (from the
  // start), noted — the other choice, dropping the tier, would lose its rate.
  const minSource = 'minimumValueString' in out ? out.minimumValueString : out.minimumValue;
  let min: string;
  if (minSource === undefined || minSource === null || minSource === '') {
    min = '0';
    notes.add(
      at(path, 'minimumValueString'),
      'guessed',
      'minimumValueString = "0"',
      'The lower bound is required; the source has none.',
      minSource ?? null,
    );
  } else min = boundToString(minSource, at(path, 'minimumValueString'), notes);
  out = replaceKey(out, 'minimumValue', 'minimumValueString', min);

  // Upper bound: null means none. Decision (ambiguity 14): nine or more 9s is a sentinel for "no upper
  // bound" and is removed; a maximum below the minimum (TCU: min 1000, max 0) cannot be a bound and is
  // removed too. Both noted with the original.
  const maxSource = 'maximumValueString' in out ? out.maximumValueString : out.maximumValue;
  let max: string | undefined;
  if (maxSource !== undefined && maxSource !== null && maxSource !== '') {
    max = boundToString(maxSource, at(path, 'maximumValueString'), notes);
    const minN = asNumber(min);
    const maxN = asNumber(max);
    if (SENTINEL_MAXIMUM.test(max.trim())) {
      notes.add(
        at(path, 'maximumValueString'),
        'guessed',
        `removed maximum ${max} (read as "no upper bound")`,
        'A run of 9s is a sentinel, not a real bound.',
        maxSource,
      );
      max = undefined;
    } else if (minN !== undefined && maxN !== undefined && maxN < minN) {
      notes.add(
        at(path, 'maximumValueString'),
        'ambiguous',
        `removed maximum ${max}, below the minimum ${min}`,
        'A maximum below the minimum cannot bound the tier; read as no upper bound.',
        maxSource,
      );
      max = undefined;
    }
  }
  out = replaceKey(out, 'maximumValue', 'maximumValueString', max);
  if (max === undefined) delete out.maximumValueString;

  // Decision (ambiguity 12): PERCENT bounds are kept as written. 2.0.0 expects a rate (0.80) but old
  // data mostly sends whole percentages (80), sometimes both in one tier (0.1 to 95); rescaling would
  // be a guess either way. A note says which scale the values seem to use.
  if (out.unitOfMeasure === 'PERCENT') {
    const values = [min, max].map(asNumber).filter((n): n is number => n !== undefined);
    const whole = values.some((n) => n > 1);
    const fraction = values.some((n) => n > 0 && n <= 1);
    if (whole) {
      notes.add(
        path,
        'ambiguous',
        'PERCENT bounds kept as written',
        whole && fraction
          ? 'The bounds mix scales (a fraction and a whole percentage) within one tier.'
          : 'The bounds look like whole percentages (80) where 2.0.0 expects a rate (0.80).',
      );
    }
  }

  const rateMethod = out.rateApplicationMethod;
  if (typeof rateMethod === 'string')
    flagUnknown(rateMethod, ['PER_TIER', 'WHOLE_BALANCE'], at(path, 'rateApplicationMethod'), 'rateApplicationMethod', notes);

  const conditionsKey = 'applicabilityConditionList' in out ? 'applicabilityConditionList' : 'applicabilityConditions';
  const conditions = normalizeConditions(out[conditionsKey], at(path, 'applicabilityConditionList'), notes);
  out = replaceKey(out, conditionsKey, 'applicabilityConditionList', conditions);
  if (conditions === undefined) delete out.applicabilityConditionList;
  return out;
}

function normalizeTiers(tiers: Json | undefined, path: string, notes: NoteSink): Json | undefined {
  if (!Array.isArray(tiers)) return tiers;
  return tiers.map((t, i) => (isObject(t) ? normalizeTier(t, at(path, i), notes) : t));
}

/**
 * Decision (ambiguity 16): applicationType is required in 2.0.0 and has no old source.
 * - applicationFrequency present → PERIODIC (that is what a frequency of application means);
 * - no frequency, a deposit rate of a TERM_DEPOSITS product → MATURITY (interest paid at maturity);
 * - otherwise PERIODIC, noted as a guess (2.0.0 then also wants applicationFrequency, which is absent).
 */
function applicationTypeFor(
  rate: JsonObject,
  kind: 'deposit' | 'lending',
  ctx: RateContext,
): { value: string; certain: boolean; why: string } {
  if (present(rate.applicationFrequency)) return { value: 'PERIODIC', certain: true, why: 'The rate has an applicationFrequency.' };
  if (kind === 'deposit' && ctx.productCategory === 'TERM_DEPOSITS')
    return { value: 'MATURITY', certain: false, why: 'A term-deposit rate without an application frequency is applied at maturity.' };
  return { value: 'PERIODIC', certain: false, why: 'No applicationFrequency; interest on this kind of product is applied periodically.' };
}

function normalizeRate(rate: JsonObject, kind: 'deposit' | 'lending', path: string, ctx: RateContext, notes: NoteSink): JsonObject {
  let out: JsonObject = { ...rate };
  const typeField = kind === 'deposit' ? 'depositRateType' : 'lendingRateType';
  flagUnknown(out[typeField], kind === 'deposit' ? DEPOSIT_RATE_TYPES : LENDING_RATE_TYPES, at(path, typeField), typeField, notes);

  if (!present(out.applicationType)) {
    const choice = applicationTypeFor(out, kind, ctx);
    out = insertAfter(out, 'rate', 'applicationType', choice.value);
    notes.add(
      at(path, 'applicationType'),
      'guessed',
      `applicationType = ${choice.value}`,
      `Required in 2.0.0 with no old source. ${choice.why}`,
    );
    if (!choice.certain && choice.value === 'PERIODIC') {
      notes.add(
        at(path, 'applicationFrequency'),
        'ambiguous',
        'applicationFrequency absent',
        '2.0.0 requires it for PERIODIC rates; the source gives none.',
      );
    }
  } else flagUnknown(out.applicationType, APPLICATION_TYPES, at(path, 'applicationType'), 'applicationType', notes);

  if (kind === 'lending') {
    // Faithful: the old schema said an absent repaymentType / loanPurpose means "applies to all",
    // which is what 2.0.0's UNCONSTRAINED says. Noted, because the value was not in the source.
    for (const [field, known] of [
      ['repaymentType', REPAYMENT_TYPES],
      ['loanPurpose', LOAN_PURPOSES],
    ] as const) {
      if (!present(out[field])) {
        out[field] = 'UNCONSTRAINED';
        notes.add(
          at(path, field),
          'guessed',
          `${field} = UNCONSTRAINED`,
          `Required in 2.0.0; in the old schema an absent ${field} meant the rate applies to all.`,
        );
      } else flagUnknown(out[field], known, at(path, field), field, notes);
    }
  }

  const tiers = normalizeTiers(out.tiers, at(path, 'tiers'), notes);
  if (tiers !== undefined) out.tiers = tiers;
  if ('applicabilityConditions' in out || 'applicabilityConditionList' in out) {
    const key = 'applicabilityConditionList' in out ? 'applicabilityConditionList' : 'applicabilityConditions';
    const conditions = normalizeConditions(out[key], at(path, 'applicabilityConditionList'), notes);
    out = replaceKey(out, key, 'applicabilityConditionList', conditions);
    if (conditions === undefined) delete out.applicabilityConditionList;
  }
  return out;
}

function insertAfter(record: JsonObject, afterKey: string, key: string, value: Json): JsonObject {
  const out: JsonObject = {};
  let placed = false;
  for (const k in record) {
    out[k] = record[k]!;
    if (k === afterKey) {
      out[key] = value;
      placed = true;
    }
  }
  if (!placed) out[key] = value;
  return out;
}

export function normalizeRates(
  rates: Json | undefined,
  kind: 'deposit' | 'lending',
  path: string,
  ctx: RateContext,
  notes: NoteSink,
): Json | undefined {
  if (!Array.isArray(rates)) return rates;
  return rates.map((r, i) => (isObject(r) ? normalizeRate(r, kind, at(path, i), ctx, notes) : r));
}
