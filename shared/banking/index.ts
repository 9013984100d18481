/** The banking product / account normalizer: any CDS version → the Data API 2.0.0 form, with notes. */
export { normalizePayload, NormalizeError, type NormalizedPayload, type RecordSummary } from './payload.js';
export { normalizeRecord, detectShape, type NormalizedRecord, type SourceShape, type RecordKind } from './record.js';
export type { NormalizationNote, NoteKind } from './notes.js';
