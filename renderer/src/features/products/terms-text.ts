import { enumText } from '../../ui/format.js';
import { numberFormat } from '../../ui/locale.js';

/**
 * The words of a banking product's terms in the Data API 2.0.0 form, as the product detail, the
 * comparison and the data browser write them: rates as percentages, amounts as money, ISO 8601
 * periods in words, tier bounds with their unit, and each fee's and discount's method.
 */
export type Json = Record<string, unknown>;

/** Reading a loosely typed record: a list of objects, an object, a value as text (a number as written; empty is none). */
export const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => !!x && typeof x === 'object') : []);
export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;

/** "0.0525" → "5.25%" (rates are fractions in the Data API); text that is not a number is shown as written. */
export function percent(rate: unknown): string {
  const s = str(rate);
  if (s === undefined) return '—';
  const n = Number(s);
  if (!Number.isFinite(n)) return s;
  return `${(n * 100).toFixed(4).replace(/\.?0+$/, '')}%`;
}

/** "12.5" → "$12.50" (AUD unless another currency is given). */
export function money(amount: unknown, currency?: unknown): string {
  const s = str(amount);
  if (s === undefined) return '—';
  const n = Number(s);
  if (!Number.isFinite(n)) return s;
  const c = str(currency) ?? 'AUD';
  const text = numberFormat({ minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Math.abs(n));
  return `${n < 0 ? '-' : ''}${c === 'AUD' ? '$' : `${c} `}${text}`;
}

const UNITS: Record<string, string> = { D: 'day', W: 'week', M: 'month', Y: 'year', H: 'hour' };
/** An ISO 8601 duration in words: P1M → "1 month", P2W → "2 weeks", P1Y6M → "1 year 6 months"; else as written. */
export function durationText(value: unknown): string {
  const s = str(value);
  if (!s) return '—';
  const m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?)?$/.exec(s);
  if (!m || m.slice(1).every((x) => x === undefined)) return s;
  return (['Y', 'M', 'W', 'D', 'H'] as const)
    .map((u, i) => (m[i + 1] ? `${m[i + 1]} ${UNITS[u]}${m[i + 1] === '1' ? '' : 's'}` : ''))
    .filter(Boolean)
    .join(' ');
}

/** A period after "every" or "per": P1M → "month", P2W → "2 weeks". */
export function periodText(value: unknown): string {
  return durationText(value).replace(/^1 (\w+)$/, '$1');
}

/** A tier bound with its unit: numbers formatted by unit; text shown exactly as written (quoted). */
export function boundText(value: unknown, unit: unknown): string {
  const s = str(value);
  if (s === undefined) return 'no limit';
  const n = Number(s);
  if (!Number.isFinite(n) || s.trim() === '') return `“${s}”`;
  switch (str(unit)) {
    case 'DOLLAR':
      return money(s);
    case 'PERCENT':
      return percent(s);
    case 'MONTH':
      return `${s} month${n === 1 ? '' : 's'}`;
    case 'DAY':
      return `${s} day${n === 1 ? '' : 's'}`;
    default:
      return `${s}${str(unit) ? ` (${enumText(str(unit))})` : ''}`;
  }
}

/** A fee's method in words. */
export function feeMethodText(fee: Json): string {
  const method = str(fee.feeMethodUType);
  const currency = fee.currency;
  if (method === 'fixedAmount') return `Fixed ${money(obj(fee.fixedAmount)?.amount, currency)}`;
  if (method === 'rateBased') {
    const r = obj(fee.rateBased) ?? {};
    const range = obj(r.amountRange);
    const parts = [`${percent(r.rate)} of the ${enumText(str(r.rateType) ?? 'amount').toLowerCase()}`];
    if (str(r.accrualFrequency)) parts.push(`accrued every ${periodText(r.accrualFrequency)}`);
    if (range && (str(range.feeMinimum) || str(range.feeMaximum)))
      parts.push(
        `min ${range.feeMinimum !== undefined ? money(range.feeMinimum, currency) : 'none'}, max ${range.feeMaximum !== undefined ? money(range.feeMaximum, currency) : 'none'}`,
      );
    return `Rate-based: ${parts.join('; ')}`;
  }
  if (method === 'variable') {
    const v = obj(fee.variable) ?? {};
    if (!str(v.feeMinimum) && !str(v.feeMaximum)) return 'Variable (no bounds given)';
    return `Variable: from ${str(v.feeMinimum) ? money(v.feeMinimum, currency) : 'no minimum'} to ${str(v.feeMaximum) ? money(v.feeMaximum, currency) : 'no maximum'}`;
  }
  return method ? `${method} (unknown method)` : 'No method given';
}

/** A discount's method in words. */
export function discountMethodText(d: Json): string {
  const method = str(d.discountMethodUType);
  if (method === 'fixedAmount') return `${money(obj(d.fixedAmount)?.amount)} off`;
  if (method === 'rateBased') {
    const r = obj(d.rateBased) ?? {};
    return `${percent(r.rate)} of the ${enumText(str(r.rateType) ?? 'fee').toLowerCase()} off`;
  }
  return method ? `${method} (unknown method)` : 'No method given';
}
