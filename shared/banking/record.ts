import { CARD_SCHEMES, CARD_TYPES, FEATURE_ACTIVATION } from './enums.js';
import { normalizeFees } from './fees.js';
import { at, NoteSink, type NormalizationNote } from './notes.js';
import { normalizeRates } from './rates.js';
import { isObject, MAX_NESTING, present, tooDeep, type Json, type JsonObject } from './values.js';

/**
 * One banking product detail or account detail, in any version its data holder served, → the
 * Data API 2.0.0 form. Pure: no I/O, no clock, the input is not modified. Fields the normalizer
 * does not touch (product identity, bundles, eligibility, unknown extensions…) are kept as sent.
 */
export type SourceShape = 'cds-legacy' | 'cds-1.34+' | 'data-api-2.0.0' | 'mixed' | 'undetermined';
export type RecordKind = 'product' | 'account';

export interface NormalizedRecord {
  kind: RecordKind;
  /** The shape the record arrived in, read from the payload itself. */
  shape: SourceShape;
  data: JsonObject;
  /** Paths relative to the record. */
  notes: NormalizationNote[];
}

export function recordKind(value: unknown): RecordKind | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.accountId === 'string') return 'account';
  if (typeof value.productId === 'string') return 'product';
  return undefined;
}

/** Reads the shape from the payload's own fields: old method fields, numeric bounds, condition objects… */
export function detectShape(record: JsonObject): SourceShape {
  const signals = new Set<'legacy' | 'cds' | 'ours'>();
  const fees = Array.isArray(record.fees) ? record.fees.filter(isObject) : [];
  for (const fee of fees) {
    if (present(fee.feeMethodUType)) signals.add('cds');
    else if (['amount', 'balanceRate', 'transactionRate', 'accruedRate'].some((k) => k in fee) || fee.feeType === 'VARIABLE')
      signals.add('legacy');
    for (const d of Array.isArray(fee.discounts) ? fee.discounts.filter(isObject) : []) {
      if (present(d.discountMethodUType)) signals.add('cds');
      else if (['amount', 'feeRate', 'balanceRate', 'transactionRate', 'accruedRate'].some((k) => k in d)) signals.add('legacy');
    }
  }
  for (const rate of [record.depositRates, record.lendingRates].flatMap((r) => (Array.isArray(r) ? r.filter(isObject) : []))) {
    for (const tier of Array.isArray(rate.tiers) ? rate.tiers.filter(isObject) : []) {
      if ('minimumValueString' in tier || 'applicabilityConditionList' in tier) signals.add('ours');
      else if (typeof tier.minimumValue === 'number' || typeof tier.maximumValue === 'number' || isObject(tier.applicabilityConditions))
        signals.add('legacy');
      else if (typeof tier.minimumValue === 'string' || Array.isArray(tier.applicabilityConditions)) signals.add('cds');
    }
    if ('applicabilityConditionList' in rate) signals.add('ours');
  }
  if (Array.isArray(record.features) && record.features.some((f) => isObject(f) && typeof f.isActivated === 'boolean'))
    signals.add('legacy');
  if (Array.isArray(record.cardArt) && record.cardArt.some((c) => isObject(c) && !('cardScheme' in c))) signals.add('legacy');
  if ('instalments' in record || 'brandGroup' in record) signals.add('cds');

  if (signals.has('legacy') && (signals.has('cds') || signals.has('ours'))) return 'mixed';
  if (signals.has('legacy')) return 'cds-legacy';
  if (signals.has('ours')) return 'data-api-2.0.0';
  if (signals.has('cds')) return 'cds-1.34+';
  return 'undetermined';
}

/**
 * Decision (ambiguity 17): cardArt's cardScheme and cardType are required in 2.0.0 and absent from
 * old data. The entry (its image) is kept with cardScheme OTHER and a cardType read from the product
 * category (credit and charge cards → CREDIT, others → DEBIT), both noted as guesses.
 */
function normalizeCardArt(cardArt: Json | undefined, category: string | undefined, path: string, notes: NoteSink): Json | undefined {
  if (!Array.isArray(cardArt)) return cardArt;
  return cardArt.map((card, i) => {
    if (!isObject(card)) return card;
    const out: JsonObject = { ...card };
    if (!present(out.cardScheme)) {
      out.cardScheme = 'OTHER';
      notes.add(at(at(path, i), 'cardScheme'), 'guessed', 'cardScheme = OTHER', 'Required in 2.0.0; old card art has no scheme.');
    } else if (typeof out.cardScheme === 'string' && !(CARD_SCHEMES as readonly string[]).includes(out.cardScheme)) {
      notes.add(
        at(at(path, i), 'cardScheme'),
        'unknown-value',
        `cardScheme "${out.cardScheme}" kept as sent`,
        'Not a card scheme of Data API 2.0.0.',
      );
    }
    if (!present(out.cardType)) {
      out.cardType = category === 'CRED_AND_CHRG_CARDS' ? 'CREDIT' : 'DEBIT';
      notes.add(
        at(at(path, i), 'cardType'),
        'guessed',
        `cardType = ${String(out.cardType)} (from productCategory ${category ?? 'absent'})`,
        'Required in 2.0.0; old card art has no type.',
      );
    } else if (typeof out.cardType === 'string' && !(CARD_TYPES as readonly string[]).includes(out.cardType)) {
      notes.add(
        at(at(path, i), 'cardType'),
        'unknown-value',
        `cardType "${out.cardType}" kept as sent`,
        'Not a card type of Data API 2.0.0.',
      );
    }
    return out;
  });
}

/**
 * Account features: `isActivated` was a boolean (absent = true) and is now ACTIVATED / NOT_ACTIVATED /
 * UNKNOWN (absent = UNKNOWN). Booleans map faithfully. Decision (ambiguity 18): in a record read as old
 * shape, an absent value meant true and becomes ACTIVATED (noted); elsewhere absent stays absent.
 */
function normalizeAccountFeatures(features: Json | undefined, legacy: boolean, path: string, notes: NoteSink): Json | undefined {
  if (!Array.isArray(features)) return features;
  return features.map((f, i) => {
    if (!isObject(f)) return f;
    if (typeof f.isActivated === 'boolean') return { ...f, isActivated: f.isActivated ? 'ACTIVATED' : 'NOT_ACTIVATED' };
    if (f.isActivated === undefined && legacy) {
      notes.add(
        at(at(path, i), 'isActivated'),
        'guessed',
        'isActivated = ACTIVATED',
        'In the old account schema an absent isActivated meant true.',
      );
      return { ...f, isActivated: 'ACTIVATED' };
    }
    if (typeof f.isActivated === 'string' && !(FEATURE_ACTIVATION as readonly string[]).includes(f.isActivated)) {
      notes.add(
        at(at(path, i), 'isActivated'),
        'unknown-value',
        `isActivated "${f.isActivated}" kept as sent`,
        'Not a value of Data API 2.0.0.',
      );
    }
    return f;
  });
}

export function normalizeRecord(record: JsonObject): NormalizedRecord {
  const kind = recordKind(record);
  if (!kind) throw new TypeError('not a banking product or account (no productId or accountId)');
  const deep = tooDeep(record);
  if (deep) throw new RangeError(`${deep}: nested more than ${MAX_NESTING} levels deep; refused`);
  const notes = new NoteSink();
  const shape = detectShape(record);
  const category = typeof record.productCategory === 'string' ? record.productCategory : undefined;
  const data: JsonObject = { ...record };
  const set = (key: string, value: Json | undefined) => {
    if (value !== undefined) data[key] = value;
  };
  set('fees', normalizeFees(record.fees, 'fees', notes));
  set('depositRates', normalizeRates(record.depositRates, 'deposit', 'depositRates', { productCategory: category }, notes));
  set('lendingRates', normalizeRates(record.lendingRates, 'lending', 'lendingRates', { productCategory: category }, notes));
  set('cardArt', normalizeCardArt(record.cardArt, category, 'cardArt', notes));
  if (kind === 'account')
    set('features', normalizeAccountFeatures(record.features, shape === 'cds-legacy' || shape === 'mixed', 'features', notes));
  if ('instalments' in record && record.instalments !== null && !isObject(record.instalments)) {
    notes.add('instalments', 'invalid', 'kept instalments as sent', 'instalments is one object, not a list or a scalar.');
  }
  return { kind, shape, data, notes: notes.notes };
}
