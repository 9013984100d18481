import { PERIOD_PRESETS, presetDays } from '../../../shared/time/periods.js';

export { isPeriodPreset, PERIOD_PRESETS, presetDays, type PeriodPreset } from '../../../shared/time/periods.js';

/** The presets (shared/time/periods.ts) as a calendar picker offers them beside its month (Mantine's `presets`). */
export function pickerPresets(now: Date = new Date()): { value: [from: string, to: string]; label: string }[] {
  return PERIOD_PRESETS.map((p) => ({ value: presetDays(p.key, now), label: p.label }));
}
