import {
  DISCOUNT_METHODS,
  DISCOUNT_RATE_TYPES,
  DISCOUNT_TYPES,
  FEE_METHODS,
  FEE_RATE_TYPES,
  FEE_TYPES,
  methodFromAnyCase,
} from './enums.js';
import { at, type NoteSink } from './notes.js';
import { isIsoDuration, isObject, isZero, omit, present, type Json, type JsonObject } from './values.js';

/**
 * Fees and discounts → the 2.0.0 form: one method discriminator (`feeMethodUType`,
 * `discountMethodUType`, written camelCase) and exactly one nested method object.
 */

const LEGACY_FEE_METHODS = [
  { key: 'amount', method: 'fixedAmount' },
  { key: 'balanceRate', method: 'rateBased', rateType: 'BALANCE' },
  { key: 'transactionRate', method: 'rateBased', rateType: 'TRANSACTION' },
  { key: 'accruedRate', method: 'rateBased', rateType: 'INTEREST_ACCRUED' },
] as const;
const LEGACY_DISCOUNT_METHODS = [
  { key: 'amount', method: 'fixedAmount' },
  { key: 'feeRate', method: 'rateBased', rateType: 'FEE' },
  { key: 'balanceRate', method: 'rateBased', rateType: 'BALANCE' },
  { key: 'transactionRate', method: 'rateBased', rateType: 'TRANSACTION' },
  { key: 'accruedRate', method: 'rateBased', rateType: 'INTEREST_ACCRUED' },
] as const;
type LegacyMethod = (typeof LEGACY_FEE_METHODS)[number] | (typeof LEGACY_DISCOUNT_METHODS)[number];

const LEGACY_FEE_KEYS = ['amount', 'balanceRate', 'transactionRate', 'accruedRate', 'accrualFrequency'];
const LEGACY_DISCOUNT_KEYS = ['amount', 'balanceRate', 'transactionRate', 'accruedRate', 'feeRate'];

/** Amounts and rates are strings in every version; a number is read as its text, with a note. */
function asText(value: Json, path: string, notes: NoteSink): string {
  if (typeof value === 'string') return value;
  notes.add(
    path,
    'invalid',
    `number ${String(value)} read as the string "${String(value)}"`,
    'Amounts and rates are strings (AmountString, RateString) in every CDS version.',
    value,
  );
  return String(value);
}

/**
 * Which of several legacy method fields to keep.
 * Decision (ambiguities 3 and 8): zero-valued fields next to a non-zero one are padding
 * (Credit Union SA sends `amount "600.00", balanceRate "0.0", transactionRate "0.0"`), so they are
 * dropped with a note. If all are zero, the amount (or the first rate) is kept. Several non-zero
 * fields are a real combination ("$600 plus a % of the loan"): the caller splits them into one
 * record per method, because a 2.0.0 fee holds exactly one.
 */
function chooseMethods<M extends LegacyMethod>(source: JsonObject, candidates: readonly M[], path: string, notes: NoteSink): M[] {
  const presentMethods = candidates.filter((m) => present(source[m.key]));
  if (presentMethods.length <= 1) return presentMethods;
  const nonZero = presentMethods.filter((m) => !isZero(source[m.key]));
  const kept = nonZero.length > 0 ? nonZero : [presentMethods[0]!];
  const dropped = presentMethods.filter((m) => !kept.includes(m));
  if (dropped.length) {
    notes.add(
      path,
      'lossy',
      `dropped zero-valued ${dropped.map((m) => `${m.key} "${String(source[m.key])}"`).join(', ')}`,
      kept.length === 1 && nonZero.length === 0
        ? `Every method field was zero; ${kept[0]!.key} was kept because a 2.0.0 record has exactly one method.`
        : 'A 2.0.0 record has exactly one method; zero-valued fields beside a non-zero one carry no charge.',
      Object.fromEntries(dropped.map((m) => [m.key, source[m.key]!])),
    );
  }
  return kept;
}

function normalizeFeeType(fee: JsonObject, path: string, notes: NoteSink): JsonObject {
  const raw = fee.feeType;
  if (typeof raw !== 'string') {
    notes.add(at(path, 'feeType'), 'invalid', 'feeType missing; kept absent', 'feeType is required and has no source here.');
    return fee;
  }
  let feeType = raw.trim().toUpperCase();
  if (feeType !== raw)
    notes.add(
      at(path, 'feeType'),
      'invalid',
      `feeType "${raw}" read as "${feeType}"`,
      'Enum values are upper case without surrounding spaces.',
      raw,
    );
  const out: JsonObject = { ...fee, feeType };
  if (feeType === 'VARIABLE') {
    // Decision (ambiguity 1): 2.0.0 has no VARIABLE fee type; "amount not known in advance" moved to
    // feeMethodUType. The type becomes OTHER, which needs additionalInfo: the source's is kept; if there
    // is none, the fee's name is copied there (noted). Inferring DISHONOUR etc. from names would be a guess.
    feeType = 'OTHER';
    out.feeType = feeType;
    notes.add(
      at(path, 'feeType'),
      'lossy',
      'feeType VARIABLE → OTHER',
      '2.0.0 has no VARIABLE fee type; the amount (if any) is kept through feeMethodUType.',
      raw,
    );
    if (!present(out.additionalInfo) && typeof out.name === 'string') {
      out.additionalInfo = out.name;
      notes.add(
        at(path, 'additionalInfo'),
        'guessed',
        'additionalInfo = the fee name',
        'feeType OTHER requires additionalInfo; the source had none.',
      );
    }
  } else if (!(FEE_TYPES as readonly string[]).includes(feeType)) {
    notes.add(at(path, 'feeType'), 'unknown-value', `feeType "${feeType}" kept as sent`, 'Not a fee type of Data API 2.0.0.');
  }
  return out;
}

/** A rateBased object's rateType outside the 2.0.0 set is kept as sent and noted. */
function flagUnknownRateType(record: JsonObject, known: readonly string[], what: 'fee' | 'discount', path: string, notes: NoteSink): void {
  const rateBased = record.rateBased;
  if (isObject(rateBased) && typeof rateBased.rateType === 'string' && !known.includes(rateBased.rateType)) {
    notes.add(
      at(path, 'rateBased.rateType'),
      'unknown-value',
      `rateType "${rateBased.rateType}" kept as sent`,
      `Not a ${what} rate type of Data API 2.0.0.`,
    );
  }
}

/** The typo key `additionaInfo` seen in real data (Great Southern Bank) becomes additionalInfo. */
function fixAdditionalInfoTypo(record: JsonObject, path: string, notes: NoteSink): JsonObject {
  if (!('additionaInfo' in record)) return record;
  const out = omit(record, ['additionaInfo']);
  if (present(record.additionalInfo)) {
    notes.add(
      at(path, 'additionaInfo'),
      'lossy',
      'dropped the misspelt key additionaInfo',
      'additionalInfo is also present and wins.',
      record.additionaInfo,
    );
  } else {
    out.additionalInfo = record.additionaInfo!;
    notes.add(
      at(path, 'additionalInfo'),
      'invalid',
      'read the misspelt key additionaInfo as additionalInfo',
      'A typo of the source; the value is kept.',
    );
  }
  return out;
}

/**
 * A list of fees or discounts: each object becomes one or more 2.0.0 records (splits take the
 * following indexes, and note paths use the output index); anything else is kept as sent, noted.
 */
function normalizeList(
  items: Json | undefined,
  path: string,
  what: string,
  notes: NoteSink,
  one: (item: JsonObject, path: string) => JsonObject[],
): Json | undefined {
  if (!Array.isArray(items)) return items;
  const out: Json[] = [];
  for (const item of items) {
    if (isObject(item)) out.push(...one(item, at(path, out.length)));
    else {
      notes.add(at(path, out.length), 'invalid', `kept a ${what} that is not an object as sent`, `A ${what} is an object.`);
      out.push(item);
    }
  }
  return out;
}

export function normalizeFees(fees: Json | undefined, path: string, notes: NoteSink): Json | undefined {
  return normalizeList(fees, path, 'fee', notes, (fee, p) => normalizeFee(fee, p, notes));
}

function normalizeFee(source: JsonObject, path: string, notes: NoteSink): JsonObject[] {
  let fee = fixAdditionalInfoTypo(source, path, notes);
  fee = normalizeFeeType(fee, path, notes);
  const discounts = normalizeDiscounts(fee.discounts, at(path, 'discounts'), notes);
  if (discounts !== undefined) fee.discounts = discounts;

  if (present(fee.feeMethodUType)) return [normalizeModernFee(fee, path, notes)];

  const methods = chooseMethods(fee, LEGACY_FEE_METHODS, path, notes);
  const base = omit(fee, LEGACY_FEE_KEYS);
  const accrual = fee.accrualFrequency;

  if (methods.length === 0) {
    // Decision (ambiguity 4): no amount and no rate. For an old VARIABLE fee that is its meaning;
    // for any other type the source broke its own rule, and "unknown until incurred" is the only
    // reading that invents nothing.
    const wasVariable = typeof source.feeType === 'string' && source.feeType.trim().toUpperCase() === 'VARIABLE';
    if (!wasVariable)
      notes.add(
        at(path, 'feeMethodUType'),
        'guessed',
        'feeMethodUType = variable (no bounds)',
        'The fee has no amount and no rate, which its old schema allowed only for VARIABLE fees.',
      );
    const out = withMethod(base, 'variable', {});
    placeAccrualFrequency(out, accrual, path, notes);
    return [out];
  }

  const parts = methods.map((m, index) => {
    const value = asText(fee[m.key]!, at(path, m.key), notes);
    const part =
      m.method === 'fixedAmount'
        ? withMethod(base, 'fixedAmount', { amount: value })
        : withMethod(base, 'rateBased', { rateType: m.rateType, rate: value });
    if (index > 0 && 'discounts' in part) delete part.discounts;
    return part;
  });
  // accrualFrequency belongs to the rate part(s) (the old text: "only applies if balanceRate or accruedRate is present").
  const rateParts = parts.filter((p) => p.feeMethodUType === 'rateBased');
  if (present(accrual)) {
    if (rateParts.length) {
      for (const p of rateParts) {
        (p.rateBased as JsonObject).accrualFrequency = accrual!;
        if (!isIsoDuration(accrual))
          notes.add(
            at(path, 'rateBased.accrualFrequency'),
            'invalid',
            `kept accrualFrequency "${String(accrual)}" as sent`,
            'It is not an ISO 8601 duration.',
          );
      }
    } else placeAccrualFrequency(parts[0]!, accrual, path, notes);
  }
  if (parts.length > 1) {
    notes.add(
      path,
      'lossy',
      `split into ${parts.length} fees named "${String(fee.name)}": ${methods.map((m) => m.key).join(' + ')}`,
      'The source charges several ways at once ("an amount plus a rate"); a 2.0.0 fee has exactly one method. Discounts stay on the first.',
    );
  }
  return parts;
}

/**
 * Decision (ambiguity 2): accrualFrequency on a fee without a rate has no place in 2.0.0
 * (`fixedAmount` holds only the amount). On a PERIODIC fee with no additionalValue it is the
 * period of the charge, which is what 2.0.0's additionalValue means for PERIODIC: moved there.
 * Otherwise it is dropped, and the note keeps its value.
 */
function placeAccrualFrequency(fee: JsonObject, accrual: Json | undefined, path: string, notes: NoteSink): void {
  if (!present(accrual)) return;
  if (fee.feeType === 'PERIODIC' && !present(fee.additionalValue)) {
    fee.additionalValue = accrual!;
    notes.add(
      at(path, 'additionalValue'),
      'guessed',
      `additionalValue = accrualFrequency "${String(accrual)}"`,
      'For a PERIODIC fee, 2.0.0 keeps the period of the charge in additionalValue; the old fee kept it in accrualFrequency.',
    );
    return;
  }
  notes.add(
    path,
    'lossy',
    `dropped accrualFrequency "${String(accrual)}"`,
    `2.0.0 keeps accrualFrequency only on rate-based fees; this fee is ${String(fee.feeMethodUType)}.`,
    accrual,
  );
}

/**
 * The record with its method discriminator placed right after its type field (where readers look
 * for it), and the one nested method object last.
 */
function withMethodAfter(base: JsonObject, typeKey: string, discriminator: string, method: string, body: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(base)) {
    out[k] = v;
    if (k === typeKey) out[discriminator] = method;
  }
  if (!(discriminator in out)) out[discriminator] = method;
  out[method] = body;
  return out;
}
const withMethod = (base: JsonObject, method: string, body: JsonObject) => withMethodAfter(base, 'feeType', 'feeMethodUType', method, body);
const withDiscountMethod = (base: JsonObject, method: string, body: JsonObject) =>
  withMethodAfter(base, 'discountType', 'discountMethodUType', method, body);

/** A fee already in the 1.34+ or 2.0.0 shape: casing of the discriminator, and a check that its object is there. */
function normalizeModernFee(fee: JsonObject, path: string, notes: NoteSink): JsonObject {
  const raw = String(fee.feeMethodUType);
  const method = methodFromAnyCase(raw, FEE_METHODS);
  const out = omit(fee, ['accrualFrequency', 'amount', 'balanceRate', 'transactionRate', 'accruedRate']);
  if (!method) {
    notes.add(at(path, 'feeMethodUType'), 'unknown-value', `feeMethodUType "${raw}" kept as sent`, 'Not a fee method of Data API 2.0.0.');
    return fee;
  }
  out.feeMethodUType = method;
  if (!isObject(out[method])) {
    out[method] = method === 'fixedAmount' && present(fee.amount) ? { amount: fee.amount! } : {};
    notes.add(
      at(path, method),
      'invalid',
      `${method} object ${present(fee.amount) && method === 'fixedAmount' ? 'built from the top-level amount' : 'missing; added empty'}`,
      `feeMethodUType is ${method} but the record has no ${method} object.`,
    );
  }
  for (const other of FEE_METHODS) {
    if (other !== method && other in out) {
      notes.add(
        at(path, other),
        'lossy',
        `dropped ${other}`,
        `feeMethodUType is ${method}; a 2.0.0 fee has exactly one method object.`,
        out[other],
      );
      delete out[other];
    }
  }
  flagUnknownRateType(out, FEE_RATE_TYPES, 'fee', path, notes);
  const dropped = ['accrualFrequency', 'amount', 'balanceRate', 'transactionRate', 'accruedRate'].filter((k) => present(fee[k]));
  if (dropped.length)
    notes.add(
      path,
      'lossy',
      `dropped old-shape ${dropped.join(', ')} beside feeMethodUType`,
      'The record already has a 2.0.0 method; the old fields duplicate or contradict it.',
      Object.fromEntries(dropped.map((k) => [k, fee[k]!])),
    );
  return out;
}

export function normalizeDiscounts(discounts: Json | undefined, path: string, notes: NoteSink): Json | undefined {
  return normalizeList(discounts, path, 'discount', notes, (d, p) => normalizeDiscount(d, p, notes));
}

function normalizeDiscount(source: JsonObject, path: string, notes: NoteSink): JsonObject[] {
  const discount = fixAdditionalInfoTypo(source, path, notes);
  const type = discount.discountType;
  if (typeof type === 'string' && !(DISCOUNT_TYPES as readonly string[]).includes(type)) {
    notes.add(at(path, 'discountType'), 'unknown-value', `discountType "${type}" kept as sent`, 'Not a discount type of Data API 2.0.0.');
  }
  if (type === 'FEE_CAP') {
    // Decision (ambiguity 9): a FEE_CAP discount stays a discount; it is not copied to the fee's feeCap.
    // Real data uses FEE_CAP for plain reductions (BOQ: "$65 annual fee for the first year, $129 after"),
    // where a cap of the discount's amount would be false.
    notes.add(
      path,
      'ambiguous',
      'kept FEE_CAP as a discount; fee.feeCap not set',
      'Old data uses FEE_CAP both for caps and for plain reductions; which one this is cannot be told from the fields.',
    );
  }
  if (present(discount.discountMethodUType)) {
    const raw = String(discount.discountMethodUType);
    const method = methodFromAnyCase(raw, DISCOUNT_METHODS);
    if (!method) {
      notes.add(
        at(path, 'discountMethodUType'),
        'unknown-value',
        `discountMethodUType "${raw}" kept as sent`,
        'Not a discount method of Data API 2.0.0.',
      );
      return [discount];
    }
    const out = omit(discount, LEGACY_DISCOUNT_KEYS);
    out.discountMethodUType = method;
    flagUnknownRateType(out, DISCOUNT_RATE_TYPES, 'discount', path, notes);
    return [out];
  }

  const methods = chooseMethods(discount, LEGACY_DISCOUNT_METHODS, path, notes);
  const base = omit(discount, LEGACY_DISCOUNT_KEYS);
  if (methods.length === 0) {
    // Decision (ambiguity 7): discountMethodUType is required and has no source. Discounts without a
    // value in real data describe waivers ("fee waived if …"; the explicit ones carry feeRate 1.0), so
    // the discount is read as a full waiver of the fee, and the note says it is a guess.
    notes.add(
      at(path, 'discountMethodUType'),
      'guessed',
      'discountMethodUType = rateBased, rateBased = { rateType FEE, rate "1" } (full waiver)',
      'The discount has no amount and no rate; 2.0.0 requires a method. Discounts without a value describe waivers.',
    );
    return [withDiscountMethod(base, 'rateBased', { rateType: 'FEE', rate: '1' })];
  }
  const parts = methods.map((m) => {
    const value = asText(discount[m.key]!, at(path, m.key), notes);
    return m.method === 'fixedAmount'
      ? withDiscountMethod(base, 'fixedAmount', { amount: value })
      : withDiscountMethod(base, 'rateBased', { rateType: m.rateType, rate: value });
  });
  if (parts.length > 1) {
    notes.add(
      path,
      'lossy',
      `split into ${parts.length} discounts: ${methods.map((m) => m.key).join(' + ')}`,
      'The source discounts several ways at once; a 2.0.0 discount has exactly one method.',
    );
  }
  return parts;
}
