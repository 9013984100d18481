import { Anchor, Badge, Group, List, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { isAllowedExternalUrl } from '../../../../shared/security/csp.js';
import { enumText } from '../../ui/format.js';
import { Panel } from '../../ui/Panel.js';
import { TableHead } from '../../ui/TableHead.js';
import { unitText } from '../../ui/glossary.js';
import {
  boundText,
  discountMethodText,
  durationText,
  feeMethodText,
  type Json,
  list,
  money,
  obj,
  percent,
  periodText,
  str,
} from './terms-text.js';

/**
 * A banking product's or account's terms in the Data API 2.0.0 form, drawn the same way in the
 * product detail, the comparison and the data browser's account detail: fees grouped by type with
 * their method, discounts, deposit and lending rates with tiers and every applicability condition,
 * instalments, eligibility, constraints, features, bundles, card art, links — and the normaliser's
 * notes beside the fields they concern. Their words (rates, amounts, periods, methods) come from
 * terms-text.ts.
 */
export interface Note {
  path: string;
  kind: string;
  action: string;
  reason: string;
  original?: unknown;
}

/** The notes whose path is this field or inside it. */
export function notesAt(notes: readonly Note[], path: string): Note[] {
  return notes.filter((n) => n.path === path || n.path.startsWith(`${path}.`) || n.path.startsWith(`${path}[`));
}

const NOTE_COLOUR: Record<string, string> = {
  lossy: 'orange',
  guessed: 'yellow',
  ambiguous: 'grape',
  invalid: 'red',
  'unknown-value': 'gray',
};

/** The normaliser's notes on a field, beside it: what was done and why, and the value as sent. */
export function Notes({ notes, path, own = false }: { notes: readonly Note[]; path: string; own?: boolean }) {
  const mine = own ? notes.filter((n) => n.path === path) : notesAt(notes, path);
  if (!mine.length) return null;
  return (
    <Stack gap={2} data-testid="normalizer-notes" aria-label={`Normaliser’s notes on ${path}`} role="note">
      {mine.map((n, i) => (
        <Text key={i} size="xs" c="dimmed">
          <Badge size="xs" variant="light" color={NOTE_COLOUR[n.kind] ?? 'gray'} mr={4}>
            {n.kind}
          </Badge>
          <code>{n.path}</code>: {n.action} — {n.reason}
          {n.original !== undefined ? <> (sent: {JSON.stringify(n.original)})</> : null}
        </Text>
      ))}
    </Stack>
  );
}

/** A link the console may open: allowlisted https hosts go to the OS browser; others are shown as text. */
export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  if (/^https:\/\//i.test(href))
    return (
      <Anchor href={href} target="_blank" rel="noreferrer noopener" size="sm" underline="always">
        {children}
        {isAllowedExternalUrl(href) ? '' : ' ↗'}
      </Anchor>
    );
  return (
    <Text span size="sm">
      {children} ({href}, not opened: only https links are)
    </Text>
  );
}

/** A titled section of the terms, with how many items it lists. */
function Section({ title, children, count }: { title: string; children: ReactNode; count?: number }) {
  return (
    <Panel title={count !== undefined ? `${title} (${count})` : title} label={title} gap={6}>
      {children}
    </Panel>
  );
}

export function Conditions({ conditions, label }: { conditions: Json[]; label: string }) {
  if (!conditions.length) return null;
  return (
    <List size="xs" spacing={2} aria-label={label}>
      {conditions.map((c, i) => (
        <List.Item key={i}>
          {enumText(str(c.rateApplicabilityType) ?? str(c.discountEligibilityType) ?? str(c.eligibilityType) ?? 'condition')}
          {str(c.additionalValue) ? `: ${str(c.additionalValue)}` : ''}
          {str(c.additionalInfo) ? ` — ${str(c.additionalInfo)}` : ''}
          {str(c.additionalInfoUri) ? (
            <>
              {' '}
              <ExternalLink href={str(c.additionalInfoUri)!}>more</ExternalLink>
            </>
          ) : null}
        </List.Item>
      ))}
    </List>
  );
}

export function FeeList({ fees, notes, path = 'fees' }: { fees: unknown; notes: readonly Note[]; path?: string }) {
  const all = list(fees).map((fee, index) => ({ fee, index }));
  const groups = new Map<string, typeof all>();
  for (const f of all) {
    const t = str(f.fee.feeType) ?? 'OTHER';
    groups.set(t, [...(groups.get(t) ?? []), f]);
  }
  return (
    <Section title="Fees" count={all.length}>
      {all.length === 0 ? (
        <Text size="sm" c="dimmed">
          No fees listed.
        </Text>
      ) : (
        <Stack gap="sm">
          {[...groups].map(([type, items]) => (
            <div key={type}>
              <Text size="sm" fw={600}>
                {enumText(type)}
              </Text>
              <Table fz="sm" aria-label={`${enumText(type)} fees`} withRowBorders={false}>
                <Table.Tbody>
                  {items.map(({ fee, index }) => {
                    const p = `${path}[${index}]`;
                    return (
                      <Table.Tr key={index} data-testid="fee">
                        <Table.Td w="32%" valign="top">
                          <Text size="sm">{str(fee.name) ?? '(unnamed fee)'}</Text>
                          {str(fee.additionalValue) ? (
                            <Text size="xs" c="dimmed">
                              {type === 'PERIODIC' ? `Every ${periodText(fee.additionalValue)}` : `Value: ${str(fee.additionalValue)}`}
                            </Text>
                          ) : null}
                        </Table.Td>
                        <Table.Td valign="top">
                          <Text size="sm" data-testid="fee-method">
                            {feeMethodText(fee)}
                          </Text>
                          {str(fee.feeCap) ? (
                            <Text size="xs">
                              Capped at {money(fee.feeCap, fee.currency)}
                              {str(fee.feeCapPeriod) ? ` per ${periodText(fee.feeCapPeriod)}` : ''}
                            </Text>
                          ) : null}
                          {str(fee.additionalInfo) ? <Text size="xs">{str(fee.additionalInfo)}</Text> : null}
                          {str(fee.additionalInfoUri) ? (
                            <ExternalLink href={str(fee.additionalInfoUri)!}>About this fee</ExternalLink>
                          ) : null}
                          {list(fee.discounts).map((d, di) => (
                            <Paper key={di} withBorder p={6} mt={4} data-testid="discount">
                              <Text size="xs" fw={600}>
                                Discount: {str(d.description) ?? enumText(str(d.discountType))}
                              </Text>
                              <Text size="xs">
                                {enumText(str(d.discountType))} — {discountMethodText(d)}
                                {str(d.additionalValue) ? ` (value ${str(d.additionalValue)})` : ''}
                              </Text>
                              {list(d.eligibility).length ? (
                                <>
                                  <Text size="xs" c="dimmed">
                                    Eligibility:
                                  </Text>
                                  <Conditions conditions={list(d.eligibility)} label="Discount eligibility" />
                                </>
                              ) : null}
                              <Notes notes={notes} path={`${p}.discounts[${di}]`} />
                            </Paper>
                          ))}
                          <Notes notes={notes.filter((n) => !n.path.startsWith(`${p}.discounts`))} path={p} />
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </div>
          ))}
        </Stack>
      )}
    </Section>
  );
}

function rateTitle(rate: Json, kind: 'deposit' | 'lending'): string {
  const type = str(kind === 'deposit' ? rate.depositRateType : rate.lendingRateType);
  const extra = [str(rate.loanPurpose), str(rate.repaymentType)].filter(Boolean).map((x) => enumText(x));
  return [enumText(type), ...extra].join(' · ');
}

export function RateList({
  rates,
  notes,
  kind,
  path,
}: {
  rates: unknown;
  notes: readonly Note[];
  kind: 'deposit' | 'lending';
  path: string;
}) {
  const all = list(rates);
  const title = kind === 'deposit' ? 'Deposit rates' : 'Lending rates';
  if (!all.length) return null;
  return (
    <Section title={title} count={all.length}>
      <Stack gap="sm">
        {all.map((rate, i) => {
          const p = `${path}[${i}]`;
          const tiers = list(rate.tiers);
          return (
            <div key={i} data-testid="rate">
              <Group gap="xs">
                <Text size="sm" fw={600}>
                  {percent(rate.rate)}
                </Text>
                <Text size="sm">{rateTitle(rate, kind)}</Text>
                {str(rate.comparisonRate) ? <Badge variant="light">comparison {percent(rate.comparisonRate)}</Badge> : null}
              </Group>
              <Text size="xs" c="dimmed">
                {[
                  str(rate.applicationType) && `applied ${enumText(str(rate.applicationType)).toLowerCase()}`,
                  str(rate.calculationFrequency) && `calculated every ${periodText(rate.calculationFrequency)}`,
                  str(rate.applicationFrequency) && `paid every ${periodText(rate.applicationFrequency)}`,
                  str(rate.interestPaymentDue) && enumText(str(rate.interestPaymentDue)).toLowerCase(),
                  str(rate.additionalValue) &&
                    (/^P/.test(str(rate.additionalValue)!) ? `term ${durationText(rate.additionalValue)}` : str(rate.additionalValue)),
                ]
                  .filter(Boolean)
                  .join('; ')}
              </Text>
              {str(rate.additionalInfo) ? <Text size="xs">{str(rate.additionalInfo)}</Text> : null}
              <Conditions conditions={list(rate.applicabilityConditionList)} label="Applicability conditions" />
              {tiers.length ? (
                <Table fz="xs" withTableBorder mt={4} aria-label={`Tiers of the ${rateTitle(rate, kind)} rate`}>
                  <TableHead columns={['Tier', 'From', 'To', 'Unit', 'Applied', 'Conditions']} />
                  <Table.Tbody>
                    {tiers.map((t, ti) => (
                      <Table.Tr key={ti} data-testid="tier">
                        <Table.Td>{str(t.name) ?? `Tier ${ti + 1}`}</Table.Td>
                        <Table.Td>{boundText(t.minimumValueString, t.unitOfMeasure)}</Table.Td>
                        <Table.Td>{boundText(t.maximumValueString, t.unitOfMeasure)}</Table.Td>
                        <Table.Td>{unitText(str(t.unitOfMeasure)) || '—'}</Table.Td>
                        <Table.Td>{enumText(str(t.rateApplicationMethod))}</Table.Td>
                        <Table.Td>
                          <Conditions conditions={list(t.applicabilityConditionList)} label="Tier conditions" />
                          <Notes notes={notes} path={`${p}.tiers[${ti}]`} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              ) : null}
              <Notes notes={notes.filter((n) => !n.path.startsWith(`${p}.tiers`))} path={p} />
            </div>
          );
        })}
      </Stack>
    </Section>
  );
}

function Instalments({ value, notes }: { value: unknown; notes: readonly Note[] }) {
  const i = obj(value);
  if (!i) return null;
  return (
    <Section title="Instalments">
      <Text size="sm">
        {[
          str(i.maximumPlanCount) && `up to ${str(i.maximumPlanCount)} plans`,
          str(i.instalmentsLimit) && `limit ${money(i.instalmentsLimit)}`,
          (str(i.minimumPlanValue) || str(i.maximumPlanValue)) && `plan value ${money(i.minimumPlanValue)} – ${money(i.maximumPlanValue)}`,
          (str(i.minimumSplit) || str(i.maximumSplit)) &&
            `split into ${str(i.minimumSplit) ?? '?'}–${str(i.maximumSplit) ?? '?'} instalments`,
        ]
          .filter(Boolean)
          .join('; ') || JSON.stringify(i)}
      </Text>
      <Notes notes={notes} path="instalments" />
    </Section>
  );
}

function Named({
  title,
  items,
  typeKey,
  notes,
  path,
}: {
  title: string;
  items: unknown;
  typeKey: string;
  notes: readonly Note[];
  path: string;
}) {
  const all = list(items);
  if (!all.length) return null;
  return (
    <Section title={title} count={all.length}>
      <List size="sm" spacing={2}>
        {all.map((x, i) => (
          <List.Item key={i}>
            {enumText(str(x[typeKey]))}
            {str(x.additionalValue) ? `: ${str(x.additionalValue)}` : ''}
            {str(x.additionalInfo) ? ` — ${str(x.additionalInfo)}` : ''}
            {x.isActivated !== undefined ? ` (${enumText(String(x.isActivated))})` : ''}
            {str(x.additionalInfoUri) ? (
              <>
                {' '}
                <ExternalLink href={str(x.additionalInfoUri)!}>more</ExternalLink>
              </>
            ) : null}
            <Notes notes={notes} path={`${path}[${i}]`} />
          </List.Item>
        ))}
      </List>
    </Section>
  );
}

/** Every term of a product or account, in the 2.0.0 form. */
export function ProductTerms({ record, notes }: { record: Json; notes: readonly Note[] }) {
  const info = obj(record.additionalInformation);
  const links = info ? Object.entries(info).filter(([, v]) => typeof v === 'string' && /^https?:/.test(v)) : [];
  return (
    <Stack gap="sm">
      <FeeList fees={record.fees} notes={notes} />
      <RateList rates={record.depositRates} notes={notes} kind="deposit" path="depositRates" />
      <RateList rates={record.lendingRates} notes={notes} kind="lending" path="lendingRates" />
      <Instalments value={record.instalments} notes={notes} />
      <Named title="Eligibility" items={record.eligibility} typeKey="eligibilityType" notes={notes} path="eligibility" />
      <Named title="Constraints" items={record.constraints} typeKey="constraintType" notes={notes} path="constraints" />
      <Named title="Features" items={record.features} typeKey="featureType" notes={notes} path="features" />
      {list(record.bundles).length ? (
        <Section title="Bundles" count={list(record.bundles).length}>
          <List size="sm">
            {list(record.bundles).map((b, i) => (
              <List.Item key={i}>
                {str(b.name)} — {str(b.description)}
                {Array.isArray(b.productIds) ? ` (with ${(b.productIds as unknown[]).join(', ')})` : ''}
              </List.Item>
            ))}
          </List>
        </Section>
      ) : null}
      {list(record.cardArt).length ? (
        <Section title="Card art" count={list(record.cardArt).length}>
          <List size="sm">
            {list(record.cardArt).map((c, i) => (
              <List.Item key={i}>
                {[str(c.title), enumText(str(c.cardScheme)), enumText(str(c.cardType))].filter(Boolean).join(' · ')}{' '}
                {str(c.imageUri) ? <ExternalLink href={str(c.imageUri)!}>image</ExternalLink> : null}
                <Notes notes={notes} path={`cardArt[${i}]`} />
              </List.Item>
            ))}
          </List>
        </Section>
      ) : null}
      {links.length ? (
        <Section title="Additional information">
          <Group gap="md">
            {links.map(([k, v]) => (
              <Tooltip key={k} label={String(v)}>
                <span>
                  <ExternalLink href={String(v)}>{enumText(k.replace(/Uri$/, '').replace(/([A-Z])/g, '_$1'))}</ExternalLink>
                </span>
              </Tooltip>
            ))}
          </Group>
        </Section>
      ) : null}
    </Stack>
  );
}

export const SHAPE_BADGE: Record<string, { label: string; colour: string; title: string }> = {
  'cds-legacy': {
    label: 'Normalised from 1.x',
    colour: 'orange',
    title: 'Served in an old CDS shape (fee amount / balanceRate, numeric tier bounds, one condition object)',
  },
  'cds-1.34+': { label: 'From CDS 1.34+', colour: 'blue', title: 'Served in the CDS 1.34+ shape; renamed to the Data API 2.0.0 form' },
  mixed: { label: 'Mixed shapes', colour: 'red', title: 'Old and new fields in one payload; each was normalised on its own' },
  undetermined: { label: 'Shape undetermined', colour: 'gray', title: 'Nothing in the payload says which version it is' },
};

export function ShapeBadge({ shape }: { shape: string | null }) {
  const b = shape ? SHAPE_BADGE[shape] : undefined;
  if (!b) return null;
  return (
    <Badge color={b.colour} variant="light" title={b.title} data-testid="shape-badge">
      {b.label}
    </Badge>
  );
}
