import { randomUUID } from 'node:crypto';
import {
  CATEGORY_TEXT,
  CHANNEL_TEXT,
  OUTCOME_TEXT,
  complaintChanges,
  complaintProblems,
  complaintReference,
  type ComplaintFields,
} from '../../../shared/complaints/complaints.js';
import type { Complaint, ComplaintFilter } from '../../../shared/ipc/contract.js';
import { dayOfInstant, machineTimeZone, zonedDateTime } from '../../../shared/time/zone.js';
import type { CoreContext, HandlersOf } from '../context.js';
import { CoreError } from '../errors.js';
import { stamp } from '../exports/exporter.js';
import { safeFileName } from '../exports/files.js';
import { streamed } from '../exports/log-exports.js';
import type { ComplaintStore } from './port.js';

type ComplaintChannels = 'complaints:list' | 'complaints:record' | 'complaints:update' | 'complaints:export';

export interface ComplaintsContext extends Pick<CoreContext, 'exports' | 'clock' | 'operator'> {
  complaints: ComplaintStore;
}

/**
 * The complaints register (issue 38): staff record the complaints consumers make about the CDR,
 * against a consent, a consumer or both; each record and each change is in the audit log, with
 * what changed; compliance exports the register.
 */
export function complaintHandlers(ctx: ComplaintsContext): HandlersOf<ComplaintChannels> {
  const store = ctx.complaints;

  /** The fields as given, refused with every problem in words when a day is after the person's today. */
  const checked = (input: ComplaintFields & { timeZone?: string | undefined }): ComplaintFields => {
    const fields: ComplaintFields = {
      receivedOn: input.receivedOn,
      channel: input.channel,
      category: input.category,
      description: input.description.trim(),
      consentId: input.consentId,
      consumerId: input.consumerId,
      outcome: input.outcome,
      resolvedOn: input.resolvedOn,
      referredTo: input.referredTo,
    };
    const today = dayOfInstant(ctx.clock().getTime(), input.timeZone ?? null).day;
    const problems = complaintProblems(fields, today);
    if (problems.length) throw new CoreError('INVALID_INPUT', problems.map((p) => p.message).join(' '));
    return fields;
  };

  return {
    'complaints:list': async ({ offset, limit, ...filter }) => store.list(filter, offset, limit),

    'complaints:record': async (input) => {
      const fields = checked(input);
      const by = ctx.operator();
      return store.record({ id: randomUUID(), fields, by, at: ctx.clock().toISOString() }, (c) => ({
        operator: by,
        action: 'complaint:record',
        target: targetOf(c),
        reason: null,
        result: `${subjectOf(c)} recorded: ${CATEGORY_TEXT[c.category]}, received ${c.receivedOn} by ${CHANNEL_TEXT[c.channel].toLowerCase()}${c.outcome ? `; ${OUTCOME_TEXT[c.outcome].toLowerCase()} on ${c.resolvedOn}` : ''}`,
      }));
    },

    'complaints:update': async ({ id, version, ...input }) => {
      const fields = checked(input);
      const by = ctx.operator();
      const r = await store.update(id, version, fields, by, ctx.clock().toISOString(), (before, after) => ({
        operator: by,
        action: 'complaint:update',
        target: targetOf(after),
        reason: null,
        result: `${subjectOf(after)} changed: ${complaintChanges(before, after) || 'nothing'}`,
      }));
      if (r.outcome === 'missing') throw new CoreError('NOT_FOUND', 'There is no such complaint in the register.');
      if (r.outcome === 'conflict')
        throw new CoreError(
          'CONFLICT',
          `${complaintReference(r.current.number)} was changed by ${r.current.updatedBy} at ${r.current.updatedAt} since you opened it: nothing was saved. Open it again to see the change, then make yours.`,
        );
      return r.complaint;
    },

    'complaints:export': async ({ format, timeZone, ...filter }) => {
      const zone = timeZone ?? machineTimeZone();
      return ctx.exports.start({
        kind: 'export-complaints',
        title: `Export the complaints register to ${format.toUpperCase()}`,
        name: `${safeFileName('complaints', stamp(ctx.clock(), timeZone))}.${format}`,
        write: async (path, job) => {
          const total = (await store.list(filter, 0, 1)).total;
          job.progress({ total, done: 0 });
          return streamed(
            path,
            format,
            COMPLAINT_COLUMNS(zone),
            windowsOf(store, filter),
            (c) => complaintCells(c, zone),
            (c) => c,
            {
              signal: job.signal,
              onRows: (done) => job.progress({ done }),
            },
          );
        },
        target: null,
        describe: (r) =>
          `${r.rows ?? 0} complaints exported as ${format.toUpperCase()} (sha256 ${r.sha256 ?? '?'}); filter ${JSON.stringify(filter)}`,
      });
    },
  };
}

/**
 * A complaint's audit entry targets its consent, as a revocation's does (the consent's timeline and
 * evidence pack find it there); its reference and its consumer are in the result.
 */
const targetOf = (c: Complaint): string | null => c.consentId;
const subjectOf = (c: Complaint): string => `${complaintReference(c.number)}${c.consumerId ? ` (consumer ${c.consumerId})` : ''}`;

/** Every complaint the filter keeps, a window at a time. */
export async function* windowsOf(store: ComplaintStore, filter: ComplaintFilter, size = 500): AsyncIterable<Complaint[]> {
  for (let offset = 0; ; offset += size) {
    const { rows } = await store.list(filter, offset, size);
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}

/** The register's columns in a CSV: the days as recorded, the instants in UTC and then in the console's zone. */
export const COMPLAINT_COLUMNS = (zone: string) => [
  'Reference',
  'Received on',
  'Channel',
  'Category',
  'Description',
  'Consent id',
  'Consumer id',
  'Status',
  'Outcome',
  'Resolved on',
  'Referred to',
  'Recorded by',
  'Recorded at (UTC)',
  'Last changed by',
  'Last changed at (UTC)',
  `Recorded at (${zone})`,
  `Last changed at (${zone})`,
];

export function complaintCells(c: Complaint, zone: string): string[] {
  return [
    complaintReference(c.number),
    c.receivedOn,
    CHANNEL_TEXT[c.channel],
    CATEGORY_TEXT[c.category],
    c.description,
    c.consentId ?? '',
    c.consumerId ?? '',
    c.status === 'open' ? 'Open' : 'Resolved',
    c.outcome ? OUTCOME_TEXT[c.outcome] : '',
    c.resolvedOn ?? '',
    c.referredTo ?? '',
    c.createdBy,
    c.createdAt,
    c.updatedBy,
    c.updatedAt,
    zonedDateTime(c.createdAt, zone),
    zonedDateTime(c.updatedAt, zone),
  ];
}
