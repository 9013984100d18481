import { Autocomplete, Divider, Group, Modal, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useState, type FormEvent } from 'react';
import {
  CATEGORY_TEXT,
  CHANNEL_TEXT,
  COMPLAINT_CATEGORIES,
  COMPLAINT_CHANNELS,
  COMPLAINT_OUTCOMES,
  DESCRIPTION_MAX,
  DISPUTE_BODIES,
  OUTCOME_TEXT,
  complaintProblems,
  complaintReference,
  type ComplaintFields,
} from '../../../../shared/complaints/complaints.js';
import type { Complaint } from '../../../../shared/ipc/contract.js';
import { presetDays } from '../../../../shared/time/periods.js';
import { ChoiceSelect } from '../../ui/ChoiceSelect.js';
import { DialogFooter } from '../../ui/DialogFooter.js';
import { bindText } from '../../ui/fields.js';
import { useCan } from '../status/can.js';
import { useSaveComplaint } from './queries.js';

const choices = <K extends string>(keys: readonly K[], text: Record<K, string>) => keys.map((value) => ({ value, label: text[value] }));

/** What the dialog opens on: a complaint to change, or a new one about a consent or a consumer. */
export type ComplaintDraft = { editing: Complaint } | { about: { consentId?: string | null; consumerId?: string | null } };

function initial(draft: ComplaintDraft): ComplaintFields {
  if ('editing' in draft) {
    const { receivedOn, channel, category, description, consentId, consumerId, outcome, resolvedOn, referredTo } = draft.editing;
    return { receivedOn, channel, category, description, consentId, consumerId, outcome, resolvedOn, referredTo };
  }
  return {
    receivedOn: presetDays('today')[0],
    channel: 'phone',
    category: 'consent',
    description: '',
    consentId: draft.about.consentId ?? null,
    consumerId: draft.about.consumerId ?? null,
    outcome: null,
    resolvedOn: null,
    referredTo: null,
  };
}

/**
 * Recording a complaint, or changing one: when and how it came, what it is about, the consent or
 * the consumer it concerns, and — once resolved — the outcome, the day and any external dispute
 * body it went to. The register's rules (shared/complaints) are checked as the person types, in the
 * words the server would refuse with; a change someone else saved meanwhile is refused, not overwritten.
 */
export function ComplaintDialog({ draft, onClose }: { draft: ComplaintDraft | null; onClose(): void }) {
  return (
    <Modal
      opened={draft !== null}
      onClose={onClose}
      size="lg"
      title={draft && 'editing' in draft ? `Complaint ${complaintReference(draft.editing.number)}` : 'Record a complaint'}
    >
      {/* Keyed: each opening starts from its own complaint. */}
      {draft ? (
        <ComplaintForm key={'editing' in draft ? `${draft.editing.id}@${draft.editing.version}` : 'new'} draft={draft} onClose={onClose} />
      ) : null}
    </Modal>
  );
}

function ComplaintForm({ draft, onClose }: { draft: ComplaintDraft; onClose(): void }) {
  const [f, setF] = useState<ComplaintFields>(() => initial(draft));
  const [tried, setTried] = useState(false);
  const set = <K extends keyof ComplaintFields>(k: K, v: ComplaintFields[K]) => setF((old) => ({ ...old, [k]: v }));
  const editing = 'editing' in draft ? draft.editing : null;
  const save = useSaveComplaint(onClose);
  const can = useCan(editing ? 'complaints:update' : 'complaints:record');
  const today = presetDays('today')[0];
  const problems = complaintProblems(f, today);
  const error = (field: keyof ComplaintFields) => (tried ? problems.find((p) => p.field === field)?.message : undefined);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (problems.length) return;
    save.mutate({ fields: { ...f, description: f.description.trim() }, editing });
  };
  const text = (k: 'consentId' | 'consumerId') => bindText(f[k] ?? '', (v) => set(k, v.trim() === '' ? null : v));
  return (
    <form onSubmit={submit} noValidate autoComplete="off">
      <Stack gap="sm">
        {editing ? (
          <Text size="xs" c="dimmed">
            Recorded by {editing.createdBy}; last changed by {editing.updatedBy}. Every change is in the audit log.
          </Text>
        ) : null}
        <Group grow align="flex-start">
          <DateInput
            label="Received on"
            required
            valueFormat="YYYY-MM-DD"
            maxDate={today}
            value={f.receivedOn}
            onChange={(v) => v && set('receivedOn', String(v).slice(0, 10))}
            error={error('receivedOn')}
            data-autofocus
          />
          <ChoiceSelect
            label="Channel"
            data={choices(COMPLAINT_CHANNELS, CHANNEL_TEXT)}
            value={f.channel}
            onChange={(v) => set('channel', v)}
          />
        </Group>
        <ChoiceSelect
          label="Category"
          data={choices(COMPLAINT_CATEGORIES, CATEGORY_TEXT)}
          value={f.category}
          onChange={(v) => set('category', v)}
        />
        <Textarea
          label="What the consumer complained about"
          required
          autosize
          minRows={3}
          maxRows={10}
          maxLength={DESCRIPTION_MAX}
          error={error('description')}
          {...bindText(f.description, (v) => set('description', v))}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Consent id"
            description="The consent it concerns, if one does."
            maxLength={200}
            error={error('consentId')}
            {...text('consentId')}
          />
          <TextInput
            label="Consumer id"
            description="As the intermediary knows them (case matters)."
            maxLength={200}
            {...text('consumerId')}
          />
        </Group>
        <Divider label="Resolution" labelPosition="left" />
        <Group grow align="flex-start">
          <Select
            label="Outcome"
            placeholder="Not resolved yet"
            clearable
            data={choices(COMPLAINT_OUTCOMES, OUTCOME_TEXT)}
            value={f.outcome}
            onChange={(v) => set('outcome', v as ComplaintFields['outcome'])}
            error={error('outcome')}
          />
          <DateInput
            label="Resolved on"
            placeholder="Not resolved yet"
            clearable
            valueFormat="YYYY-MM-DD"
            maxDate={today}
            minDate={f.receivedOn}
            value={f.resolvedOn}
            onChange={(v) => set('resolvedOn', v ? String(v).slice(0, 10) : null)}
            error={error('resolvedOn')}
          />
        </Group>
        <Autocomplete
          label="Referred to an external dispute resolution body"
          description="AFCA, an energy ombudsman, the OAIC… Leave empty when it was not."
          data={[...DISPUTE_BODIES]}
          maxLength={120}
          value={f.referredTo ?? ''}
          onChange={(v) => set('referredTo', v.trim() === '' ? null : v)}
        />
        <DialogFooter
          mutation={save}
          errorTitle={editing ? 'The complaint was not saved' : 'The complaint was not recorded'}
          onCancel={onClose}
          action={editing ? 'Save complaint' : 'Record complaint'}
          disabled={!can.allowed}
        >
          {can.allowed ? null : (
            <Text size="sm" c="dimmed">
              {can.reason}
            </Text>
          )}
        </DialogFooter>
      </Stack>
    </form>
  );
}
