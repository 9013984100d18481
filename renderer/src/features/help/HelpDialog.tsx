import { Code, Kbd, Modal, Stack, Table, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { GLOSSARY_GROUPS } from '../../ui/glossary.js';

/**
 * The help a person opens with `?` (or the header's Help button): the keyboard shortcuts, and the
 * glossary — every API value the screens show in words, with what it means, and the words of the
 * Consumer Data Right (ui/glossary.ts, the same words the screens use).
 */
const keys = (...k: string[]) =>
  k.map((x, i) => (
    <span key={x}>
      {i ? ' ' : ''}
      <Kbd size="xs">{x}</Kbd>
    </span>
  ));

const SHORTCUTS: { where: string; rows: [ReactNode, string][] }[] = [
  {
    where: 'Anywhere',
    rows: [
      [keys('Ctrl', 'K'), 'Open the command palette: find a consent by any identifier, a screen or a command (⌘ K on a Mac)'],
      [keys('?'), 'Open this help'],
      [keys('Esc'), 'Close a dialog, a menu or the palette'],
    ],
  },
  {
    where: 'Lists (consents, events, data)',
    rows: [
      [keys('/'), 'Focus the search (Consents)'],
      [[...keys('↓'), ' or ', ...keys('j')], 'Next row'],
      [[...keys('↑'), ' or ', ...keys('k')], 'Previous row'],
      [[...keys('Page Down'), ' ', ...keys('Page Up')], 'A screenful down or up'],
      [[...keys('Home'), ' ', ...keys('End')], 'First or last row'],
      [keys('Enter'), 'Open the row'],
      [[...keys('Space'), ' or ', ...keys('x')], 'Select the row (Consents: for a bulk revocation)'],
      [[...keys('Shift'), ' + click'], 'Select every row between the last one chosen and this one'],
    ],
  },
  {
    where: 'Charts',
    rows: [
      [[...keys('←'), ' ', ...keys('→')], 'Move between the days or weeks, each read out with its figures'],
      [[...keys('Home'), ' ', ...keys('End')], 'First or last day'],
    ],
  },
];

function Shortcuts() {
  return (
    <Stack gap="md">
      {SHORTCUTS.map((group) => (
        <section key={group.where} aria-label={group.where}>
          <Title order={3} size="h6" mb={4}>
            {group.where}
          </Title>
          <Table fz="sm" withRowBorders={false} verticalSpacing={4}>
            <Table.Tbody>
              {group.rows.map(([k, what]) => (
                <Table.Tr key={what}>
                  <Table.Td w={200} style={{ whiteSpace: 'nowrap' }}>
                    {k}
                  </Table.Td>
                  <Table.Td>{what}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </section>
      ))}
    </Stack>
  );
}

function Glossary() {
  const [q, setQ] = useState('');
  const needle = q.trim().toLowerCase();
  const groups = GLOSSARY_GROUPS.map((g) => ({
    ...g,
    terms: g.terms.filter((t) => !needle || `${t.value} ${t.words} ${t.meaning}`.toLowerCase().includes(needle)),
  })).filter((g) => g.terms.length);
  return (
    <Stack gap="sm">
      <TextInput
        label="Find a word"
        placeholder="e.g. webhook, EXPIRED, arrangement"
        size="xs"
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        data-autofocus
      />
      {groups.length === 0 ? <Text size="sm">No word of the glossary has “{q.trim()}”.</Text> : null}
      {groups.map((g) => (
        <section key={g.title} aria-label={g.title}>
          <Title order={3} size="h6" mb={4}>
            {g.title}
          </Title>
          <Stack gap={6} component="dl" m={0}>
            {g.terms.map((t) => (
              <div key={`${g.title}-${t.value}`}>
                <Text component="dt" size="sm" fw={600}>
                  {t.words}
                  {t.value !== t.words ? (
                    <>
                      {' '}
                      <Code fz="xs">{t.value}</Code>
                    </>
                  ) : null}
                </Text>
                <Text component="dd" size="sm" m={0} c="dimmed">
                  {t.meaning}
                </Text>
              </div>
            ))}
          </Stack>
        </section>
      ))}
    </Stack>
  );
}

export function HelpDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Help" size="lg">
      <Tabs defaultValue="shortcuts" keepMounted={false}>
        <Tabs.List mb="sm">
          <Tabs.Tab value="shortcuts">Keyboard shortcuts</Tabs.Tab>
          <Tabs.Tab value="glossary">Glossary</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="shortcuts">
          <Shortcuts />
        </Tabs.Panel>
        <Tabs.Panel value="glossary">
          <Glossary />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}
