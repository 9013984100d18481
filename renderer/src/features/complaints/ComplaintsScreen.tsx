import { Select, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router';
import { CATEGORY_TEXT, COMPLAINT_CATEGORIES, type ComplaintCategory } from '../../../../shared/complaints/complaints.js';
import type { ComplaintFilter } from '../../../../shared/ipc/contract.js';
import { DayRangeInput } from '../../ui/DayRangeInput.js';
import { useDebouncedText } from '../../ui/fields.js';
import { FilterRow } from '../../ui/FilterRow.js';
import { useQueryParams } from '../../ui/url.js';
import { ComplaintsList } from './ComplaintsList.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The complaints register (CDR rule 9.3's complaint data; issue 38): every complaint staff
 * recorded, open ones marked, filtered by status, category, the days received, a consent or a
 * consumer — the view in the URL, so a link brings it back.
 */
export function ComplaintsScreen() {
  const navigate = useNavigate();
  const [params, update] = useQueryParams();
  const get = (k: string) => params.get(k) ?? undefined;
  const status = get('status');
  const category = get('category');
  const from = get('from');
  const to = get('to');
  const filter: ComplaintFilter = {
    ...(status === 'open' || status === 'resolved' ? { status } : {}),
    ...(category && (COMPLAINT_CATEGORIES as readonly string[]).includes(category) ? { category: category as ComplaintCategory } : {}),
    ...(from && DAY.test(from) ? { receivedFrom: from } : {}),
    ...(to && DAY.test(to) ? { receivedTo: to } : {}),
    ...(get('consentId') ? { consentId: get('consentId')! } : {}),
    ...(get('consumerId') ? { consumerId: get('consumerId')! } : {}),
  };
  const consent = useDebouncedText(filter.consentId ?? '', (v) => update({ consentId: v.trim() }, { replace: true }), 250);
  const consumer = useDebouncedText(filter.consumerId ?? '', (v) => update({ consumerId: v.trim() }, { replace: true }), 250);
  return (
    <ComplaintsList
      title="Complaints"
      filter={filter}
      about={{ consentId: filter.consentId ?? null, consumerId: filter.consumerId ?? null }}
      filters={
        <FilterRow onClear={Object.keys(filter).length ? () => navigate({ search: '' }) : undefined}>
          <Select
            label="Status"
            size="xs"
            w={140}
            clearable
            placeholder="Any"
            data={[
              { value: 'open', label: 'Open' },
              { value: 'resolved', label: 'Resolved' },
            ]}
            value={filter.status ?? null}
            onChange={(v) => update({ status: v })}
          />
          <Select
            label="Category"
            size="xs"
            w={260}
            clearable
            placeholder="Any category"
            data={COMPLAINT_CATEGORIES.map((value) => ({ value, label: CATEGORY_TEXT[value] }))}
            value={filter.category ?? null}
            onChange={(v) => update({ category: v })}
          />
          <DayRangeInput
            label="Received"
            w={240}
            value={[filter.receivedFrom ?? null, filter.receivedTo ?? null]}
            onChange={([f, t]) => update({ from: f, to: t })}
          />
          <TextInput label="Consent id" size="xs" w={260} {...consent.input} />
          <TextInput label="Consumer id" size="xs" w={200} {...consumer.input} />
        </FilterRow>
      }
    />
  );
}
