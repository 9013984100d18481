import { Anchor, Stack, Table, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useClient } from '../../bridge/ClientContext.js';
import { enumText, plural } from '../../ui/format.js';
import { ScreenHeader } from '../../ui/ScreenHeader.js';
import { ErrorState, LoadingState } from '../../ui/states.js';
import { durationText, feeMethodText, percent } from './terms-text.js';
import classes from './compare.module.css';

/**
 * 2 to 4 products side by side, one row per term (each fee by name, each rate by type, eligibility,
 * features…); a row whose values differ is marked, in colour and in words.
 */
type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const s = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

export function compareRows(records: Json[]): { label: string; values: string[]; differs: boolean }[] {
  const rows = new Map<string, string[]>();
  const put = (label: string, i: number, value: string) => {
    const r = rows.get(label) ?? records.map(() => '—');
    r[i] = r[i] === '—' ? value : `${r[i]}; ${value}`;
    rows.set(label, r);
  };
  records.forEach((r, i) => {
    put('Data holder', i, s(r.brandName ?? r.brand));
    put('Category', i, enumText(s(r.productCategory)));
    for (const f of list(r.fees)) {
      put(
        `Fee: ${s(f.name) || enumText(s(f.feeType))}`,
        i,
        feeMethodText(f) + (list(f.discounts).length ? ` (${plural(list(f.discounts).length, 'discount')})` : ''),
      );
    }
    for (const [key, label] of [
      ['depositRates', 'Deposit rate'],
      ['lendingRates', 'Lending rate'],
    ] as const) {
      for (const rate of list(r[key])) {
        const type = s(rate.depositRateType ?? rate.lendingRateType);
        const extra = [
          rate.loanPurpose,
          rate.repaymentType,
          rate.additionalValue && /^P/.test(s(rate.additionalValue)) ? durationText(rate.additionalValue) : '',
        ]
          .map(s)
          .filter(Boolean)
          .map((x) => (/^[A-Z_]+$/.test(x) ? enumText(x) : x))
          .join(', ');
        put(
          `${label}: ${enumText(type)}${extra ? ` (${extra})` : ''}`,
          i,
          `${percent(rate.rate)}${list(rate.tiers).length ? `, ${plural(list(rate.tiers).length, 'tier')}` : ''}`,
        );
      }
    }
    for (const e of list(r.eligibility)) put(`Eligibility: ${enumText(s(e.eligibilityType))}`, i, s(e.additionalValue) || 'yes');
    for (const f of list(r.features)) put(`Feature: ${enumText(s(f.featureType))}`, i, s(f.additionalValue) || 'yes');
    for (const c of list(r.constraints)) put(`Constraint: ${enumText(s(c.constraintType))}`, i, s(c.additionalValue) || 'yes');
    if (r.instalments) put('Instalments', i, 'yes');
  });
  return [...rows].map(([label, values]) => ({ label, values, differs: new Set(values).size > 1 }));
}

export function CompareScreen() {
  const client = useClient();
  const [params] = useSearchParams();
  const ids = (params.get('ids') ?? '').split(',').filter(Boolean).slice(0, 4);
  const results = useQueries({
    queries: ids.map((recordId) => ({ queryKey: ['products:get', recordId], queryFn: () => client.productsGet({ recordId }) })),
  });
  const error = results.find((r) => r.error)?.error;
  const heading = <ScreenHeader back={{ to: '/products', label: 'Products' }} title="Compare products" />;
  if (ids.length < 2)
    return (
      <Stack>
        {heading}
        <Text>Choose 2 to 4 products on the Products screen to compare them.</Text>
      </Stack>
    );
  if (error)
    return (
      <Stack>
        {heading}
        <ErrorState title="A product could not be read" error={error} />
      </Stack>
    );
  if (results.some((r) => !r.data)) return <LoadingState label="Reading the products…" />;
  const records = results.map((r) => r.data!.record);
  const rows = compareRows(records);
  const differing = rows.filter((r) => r.differs).length;
  return (
    <Stack gap="sm">
      {heading}
      <Text size="sm" c="dimmed">
        {differing} of {rows.length} terms differ; they are marked “differs” and shaded.
      </Text>
      <Table.ScrollContainer minWidth={600}>
        <Table fz="sm" withTableBorder withColumnBorders aria-label="Products side by side">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Term</Table.Th>
              {results.map((r) => (
                <Table.Th key={r.data!.recordId}>
                  <Anchor component={Link} to={`/products/${encodeURIComponent(r.data!.recordId)}`} size="sm">
                    {s(r.data!.record.name)}
                  </Anchor>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.label} className={row.differs ? classes.differs : undefined} data-differs={row.differs || undefined}>
                <Table.Th scope="row" fw={500}>
                  {row.label}
                  {row.differs ? (
                    <Text span size="xs" fw={700} ml={6}>
                      {' '}
                      differs
                    </Text>
                  ) : null}
                </Table.Th>
                {row.values.map((v, i) => (
                  <Table.Td key={i}>{v}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
